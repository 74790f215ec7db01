package com.acme.fulfil.system.backend;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.system.harness.Figures;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One backend for the whole test run, started when a test first asks for it ({@code AwsBackend} as a
 * parameter) and stopped when the run ends: LocalStack takes seconds to start, and every test class
 * names its resources after itself, so they can share it. A backend this machine cannot run disables
 * the test classes, which are then reported as skipped with the reason.
 */
public final class SharedBackend implements ExecutionCondition, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedBackend.class);

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    BackendChoice choice = BackendChoice.selected();
    return choice.whyUnavailable()
        .map(ConditionEvaluationResult::disabled)
        .orElseGet(() -> ConditionEvaluationResult.enabled("backend " + choice));
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == AwsBackend.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE)
        .getOrComputeIfAbsent(Started.class, key -> Started.start(BackendChoice.selected()), Started.class)
        .backend();
  }

  /** The running backend; JUnit closes it with the root context, at the end of the run. */
  private record Started(AwsBackend backend) implements ExtensionContext.Store.CloseableResource {
    static Started start(BackendChoice choice) {
      AwsBackend backend = choice.start();
      // The function builds its SDK clients from the default credential chain, which reads these first.
      backend.connection().sdkSystemProperties().forEach(System::setProperty);
      Figures.print("system tests run on %s", backend.name());
      return new Started(backend);
    }

    @Override
    public void close() {
      backend.close();
    }
  }
}
