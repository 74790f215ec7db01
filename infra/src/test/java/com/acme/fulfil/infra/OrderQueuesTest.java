package com.acme.fulfil.infra;

import static com.acme.fulfil.infra.Synth.arnOf;
import static com.acme.fulfil.infra.Synth.ref;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class OrderQueuesTest {
  private final Template template = Synth.defaults();
  private final String source = Synth.logicalId(template, "AWS::SQS::Queue", Map.of("QueueName", "orders-to-fulfil"));
  private final String dlq = Synth.logicalId(template, "AWS::SQS::Queue", Map.of("QueueName", "orders-to-fulfil-dlq"));

  @Test
  void sourceQueueHidesAReceivedOrderForSixFunctionTimeoutsAndKeepsItFourDays() {
    template.hasResourceProperties("AWS::SQS::Queue", Map.of(
        "QueueName", "orders-to-fulfil",
        "VisibilityTimeout", 1800,
        "MessageRetentionPeriod", 345_600));
  }

  /**
   * Up to 4 days of waiting orders and 14 days of dead letters: neither a stack deletion nor an update that
   * replaces a queue deletes them. Only a first deploy that rolls back deletes the queues it created, still
   * empty, so that its retry does not stop on their names.
   */
  @Test
  void bothQueuesOutliveTheStackAndAnyReplacement() {
    for (String queue : List.of("orders-to-fulfil", "orders-to-fulfil-dlq")) {
      template.hasResource("AWS::SQS::Queue", Map.of(
          "Properties", Map.of("QueueName", queue),
          "DeletionPolicy", "RetainExceptOnCreate",
          "UpdateReplacePolicy", "Retain"));
    }
  }

  @Test
  void theStackCannotBeDeletedWithoutTurningOffItsTerminationProtection() {
    assertThat(Synth.defaultStack().getTerminationProtection()).isTrue();
  }

  @Test
  void poisonMessageReachesTheDlqAfterFourteenReceives() {
    template.hasResourceProperties("AWS::SQS::Queue", Map.of(
        "QueueName", "orders-to-fulfil",
        "RedrivePolicy", Match.objectEquals(Map.of("deadLetterTargetArn", arnOf(dlq), "maxReceiveCount", 14))));
  }

  @Test
  void dlqKeepsMessagesFourteenDaysAndAcceptsThemOnlyFromOrdersToFulfil() {
    // By name, in the committed account and region, which the stack's environment makes literal.
    String sourceArnByName = "arn:aws:sqs:" + Synth.AWS_REGION + ":" + Synth.AWS_ACCOUNT + ":orders-to-fulfil";
    template.hasResourceProperties("AWS::SQS::Queue", Match.objectEquals(Map.of(
        "QueueName", "orders-to-fulfil-dlq",
        "MessageRetentionPeriod", 1_209_600,
        "SqsManagedSseEnabled", true,
        "RedriveAllowPolicy", Map.of("redrivePermission", "byQueue", "sourceQueueArns", List.of(sourceArnByName)))));
  }

  @Test
  void bothQueuesAreEncryptedWithSqsManagedKeys() {
    template.hasResourceProperties("AWS::SQS::Queue", Map.of("QueueName", "orders-to-fulfil", "SqsManagedSseEnabled", true));
    template.hasResourceProperties("AWS::SQS::Queue", Map.of("QueueName", "orders-to-fulfil-dlq", "SqsManagedSseEnabled", true));
  }

  @Test
  void bothQueuesDenyEveryRequestWithoutTls() {
    for (String queue : List.of(source, dlq)) {
      template.hasResourceProperties("AWS::SQS::QueuePolicy", Match.objectEquals(Map.of(
          "Queues", List.of(ref(queue)),
          "PolicyDocument", Map.of(
              "Version", "2012-10-17",
              "Statement", List.of(Map.of(
                  "Effect", "Deny",
                  "Principal", Map.of("AWS", "*"),
                  "Action", "sqs:*",
                  "Resource", arnOf(queue),
                  "Condition", Map.of("Bool", Map.of("aws:SecureTransport", "false"))))))));
    }
  }
}
