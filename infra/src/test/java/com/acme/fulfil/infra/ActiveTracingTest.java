package com.acme.fulfil.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** Lambda's active tracing (X-Ray): off in the stack as deployed by default, on with {@code -c activeTracing=true}. */
class ActiveTracingTest {

  @Test
  void offByDefaultTheFunctionHasNoTracingConfigAndItsRoleNoXRay() {
    Template template = Synth.defaults();

    template.hasResourceProperties("AWS::Lambda::Function", Map.of(
        "FunctionName", "fulfil-order", "TracingConfig", Match.absent()));
    assertThat(actions(template)).noneMatch(action -> action.startsWith("xray:"));
  }

  @Test
  void onWhenAskedTheFunctionIsTracedItsRoleMayWriteSegmentsAndCdkNagIsSettled() {
    FulfilOrderStack stack = Synth.stack(Map.of("activeTracing", "true"));
    Template template = Template.fromStack(stack);

    template.hasResourceProperties("AWS::Lambda::Function", Map.of(
        "FunctionName", "fulfil-order", "TracingConfig", Map.of("Mode", "Active")));
    assertThat(actions(template)).contains("xray:PutTraceSegments", "xray:PutTelemetryRecords");
    Annotations annotations = Annotations.fromStack(stack);
    assertThat(annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*"))).isEmpty();
    assertThat(annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*"))).isEmpty();
  }

  @Test
  void aJsonBooleanAsCdkJsonHoldsItIsReadToo() {
    Template.fromStack(Synth.stack(Map.of("activeTracing", false))).hasResourceProperties("AWS::Lambda::Function", Map.of(
        "FunctionName", "fulfil-order", "TracingConfig", Match.absent()));
  }

  @Test
  void anythingButTrueOrFalseIsRefusedWithTheSetting() {
    assertThat(Synth.refusal(Map.of("activeTracing", "yes"))).contains("activeTracing must be true or false, got 'yes'.");
  }

  private static List<String> actions(Template template) {
    return Synth.roleStatements(template).stream()
        .flatMap(statement -> statement.get("Action") instanceof List<?> list ? list.stream() : Stream.of(statement.get("Action")))
        .map(String::valueOf)
        .toList();
  }
}
