package com.acme.fulfil.system.backend;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.system.harness.Figures;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One backend per test JVM, started when a test first asks for it ({@code AwsBackend} as a parameter)
 * and stopped when the JVM exits: LocalStack takes seconds to start, and every test class names its
 * resources after itself, so they can share it. It is held here rather than in JUnit's root context
 * because Surefire's forks run each class in an engine execution of its own, whose root context ends
 * with the class. A backend this machine cannot run disables the test classes, which are then
 * reported as skipped with the reason.
 */
public final class SharedBackend implements ExecutionCondition, ParameterResolver {
  private static AwsBackend running;

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
    return backend();
  }

  private static synchronized AwsBackend backend() {
    if (running == null) {
      AwsBackend backend = BackendChoice.selected().start();
      Runtime.getRuntime().addShutdownHook(new Thread(backend::close, "stop-" + backend.name()));
      Figures.print("system tests run on %s", backend.name());
      running = backend;
    }
    return running;
  }
}
