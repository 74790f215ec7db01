package com.acme.fulfil.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StageSynthesisOptions;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.sns.ITopic;
import software.amazon.awscdk.services.sns.Topic;

/**
 * Synth stops on an alarm whose topic refuses CloudWatch. The stack as it was before this check (a topic
 * whose policy held only the TLS Deny) is rebuilt here in miniature and refused; the stack as it is passes.
 */
class AlarmTopicsAcceptCloudWatchTest {

  @Test
  void theStacksAlarmsAllNotifyATopicCloudWatchMayPublishTo() {
    assertThat(new AlarmTopicsAcceptCloudWatch(Synth.defaultStack()).validate()).isEmpty();
  }

  /** What {@code cdk synth} runs: the stack's own validation, this check among them, passes. */
  @Test
  void theStackSynthesizesWithTheCheckInPlace() {
    App app = (App) Synth.defaultStack().getNode().getRoot();
    assertThatCode(() -> app.synth(StageSynthesisOptions.builder().force(true).build())).doesNotThrowAnyException();
  }

  /** The topic as it was: TLS enforced, nothing allowed. A topic policy replaces SNS's default, so CloudWatch is refused. */
  @Test
  void aTopicWhosePolicyHoldsOnlyTheTlsDenyStopsSynth() {
    App app = new App();
    Stack stack = new Stack(app, "old");
    Topic topic = Topic.Builder.create(stack, "Topic").topicName("fulfil-order-alarms").enforceSsl(true).build();
    alarm(stack, topic);
    stack.getNode().addValidation(new AlarmTopicsAcceptCloudWatch(stack));

    assertThat(new AlarmTopicsAcceptCloudWatch(stack).validate())
        .hasSize(2)
        .allMatch(problem -> problem.startsWith("an-alarm: its ") && problem.contains("does not allow cloudwatch.amazonaws.com"
            + " to sns:Publish with aws:SourceAccount and aws:SourceArn conditions") && problem.contains("nobody is paged"));
    assertThatThrownBy(app::synth).hasMessageContaining("an-alarm: its alarm action is topic");
  }

  /** Allowing CloudWatch without saying whose alarms lets any account's alarm publish: refused too. */
  @Test
  void anAllowForCloudWatchWithoutSourceConditionsIsRefused() {
    Stack stack = new Stack(new App(), "unscoped");
    Topic topic = Topic.Builder.create(stack, "Topic").enforceSsl(true).build();
    topic.addToResourcePolicy(PolicyStatement.Builder.create()
        .principals(List.of(new ServicePrincipal("cloudwatch.amazonaws.com")))
        .actions(List.of("sns:Publish"))
        .resources(List.of(topic.getTopicArn()))
        .build());
    alarm(stack, topic);

    assertThat(new AlarmTopicsAcceptCloudWatch(stack).validate()).hasSize(2);

    topic.addToResourcePolicy(PolicyStatement.Builder.create()
        .principals(List.of(new ServicePrincipal("cloudwatch.amazonaws.com")))
        .actions(List.of("SNS:Publish"))
        .resources(List.of(topic.getTopicArn()))
        .conditions(Map.of("StringEquals", Map.of("AWS:SourceAccount", stack.getAccount()),
            "ArnLike", Map.of("aws:SourceArn", "arn:aws:cloudwatch:eu-west-1:123456789012:alarm:*")))
        .build());
    assertThat(new AlarmTopicsAcceptCloudWatch(stack).validate()).as("scoped, in IAM's case-insensitive keys").isEmpty();
  }

  /** A topic from elsewhere may accept CloudWatch or not: nothing in the template shows which, so synth refuses it. */
  @Test
  void anAlarmNotifyingATopicTheStackDoesNotDefineIsRefused() {
    Stack stack = new Stack(new App(), "imported");
    ITopic elsewhere = Topic.fromTopicArn(stack, "Elsewhere", "arn:aws:sns:eu-west-1:123456789012:someone-elses");
    alarm(stack, elsewhere);

    assertThat(new AlarmTopicsAcceptCloudWatch(stack).validate())
        .containsExactly("an-alarm: its alarm action arn:aws:sns:eu-west-1:123456789012:someone-elses is not a topic of this"
                + " stack, so nothing here shows that CloudWatch may publish to it; notify a topic the stack defines, with a"
                + " policy that allows cloudwatch.amazonaws.com.",
            "an-alarm: its OK action arn:aws:sns:eu-west-1:123456789012:someone-elses is not a topic of this stack, so"
                + " nothing here shows that CloudWatch may publish to it; notify a topic the stack defines, with a policy"
                + " that allows cloudwatch.amazonaws.com.");
  }

  private static void alarm(Stack stack, ITopic topic) {
    Alarm alarm = Alarm.Builder.create(stack, "Alarm")
        .alarmName("an-alarm")
        .metric(Metric.Builder.create().namespace("AWS/SQS").metricName("ApproximateNumberOfMessagesVisible").build())
        .threshold(0)
        .evaluationPeriods(1)
        .build();
    alarm.addAlarmAction(new SnsAction(topic));
    alarm.addOkAction(new SnsAction(topic));
  }
}
