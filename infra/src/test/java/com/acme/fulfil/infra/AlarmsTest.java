package com.acme.fulfil.infra;

import static com.acme.fulfil.infra.Synth.ref;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class AlarmsTest {
  private final Template template = Synth.defaults();
  private final String topic = Synth.logicalId(template, "AWS::SNS::Topic", Map.of("TopicName", "fulfil-order-alarms"));

  @Test
  void anyMessageInTheDlqNotifiesOnCall() {
    assertAlarm("orders-to-fulfil-dlq-not-empty", "AWS/SQS", "ApproximateNumberOfMessagesVisible",
        queueName("orders-to-fulfil-dlq"), "Maximum", 0);
  }

  @Test
  void aMessageOlderThanTheRetryHorizonNotifiesOnCall() {
    // 1,800 s visibility x 5 receives: by then every message is booked or in the DLQ.
    assertAlarm("orders-to-fulfil-oldest-message-too-old", "AWS/SQS", "ApproximateAgeOfOldestMessage",
        queueName("orders-to-fulfil"), "Maximum", 9000);
  }

  @Test
  void inFlightCountNearTheSqsCapNotifiesOnCall() {
    assertAlarm("orders-to-fulfil-in-flight-near-cap", "AWS/SQS", "ApproximateNumberOfMessagesNotVisible",
        queueName("orders-to-fulfil"), "Maximum", 100_000);
  }

  @Test
  void moreOrdersWaitingThanTheStackBooksInFifteenMinutesNotifiesOnCall() {
    // 10 invocations x 3600 s / 48 s an order = 750 an hour, 188 in 15 minutes; all five minutes above it.
    assertAlarm("orders-to-fulfil-backlog", "AWS/SQS", "ApproximateNumberOfMessagesVisible",
        queueName("orders-to-fulfil"), "Minimum", 188);
  }

  @Test
  void theBacklogThresholdFollowsTheMappingsConcurrency() {
    Template doubled = Template.fromStack(Synth.stack(Map.of("maxConcurrency", "20")));
    doubled.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of("AlarmName", "orders-to-fulfil-backlog", "Threshold", 375));
  }

  @Test
  void functionErrorsNotifyOnCall() {
    assertAlarm("fulfil-order-errors", "AWS/Lambda", "Errors", functionName(), "Sum", 0);
  }

  @Test
  void functionThrottlesNotifyOnCall() {
    assertAlarm("fulfil-order-throttles", "AWS/Lambda", "Throttles", functionName(), "Sum", 0);
  }

  @Test
  void messagesTheMappingDroppedWithoutTheFunctionNotifyOnCall() {
    String mapping = Synth.logicalId(template, "AWS::Lambda::EventSourceMapping", Map.of("BatchSize", 1));
    assertAlarm("fulfil-order-mapping-dropped-events", "AWS/Lambda", "DroppedEventCount",
        Map.of("Name", "EventSourceMappingUUID", "Value", ref(mapping)), "Sum", 0);
  }

  @Test
  void alarmTopicRefusesPublishingWithoutTls() {
    template.hasResourceProperties("AWS::SNS::TopicPolicy", Map.of(
        "Topics", List.of(ref(topic)),
        "PolicyDocument", Map.of("Statement", List.of(Map.of(
            "Effect", "Deny",
            "Principal", "*",
            "Action", "sns:Publish",
            "Resource", ref(topic),
            "Condition", Map.of("Bool", Map.of("aws:SecureTransport", "false")))))));
  }

  @Test
  void withoutAnAlarmEmailNobodyIsSubscribedAndSynthSaysSo() {
    template.resourceCountIs("AWS::SNS::Subscription", 0);
    Annotations.fromStack(Synth.defaultStack()).hasWarning("/fulfil-order/Alarms/Topic",
        Match.stringLikeRegexp("No alarmEmail in context.*"));
  }

  @Test
  void alarmEmailFromContextIsSubscribedToTheTopic() {
    Template withEmail = Template.fromStack(Synth.stack(Map.of("alarmEmail", "oncall@acme.example")));
    withEmail.hasResourceProperties("AWS::SNS::Subscription", Match.objectEquals(Map.of(
        "Protocol", "email",
        "Endpoint", "oncall@acme.example",
        "TopicArn", ref(Synth.logicalId(withEmail, "AWS::SNS::Topic", Map.of("TopicName", "fulfil-order-alarms"))))));
  }

  private void assertAlarm(String name, String namespace, String metric, Map<String, Object> dimension,
      String statistic, int threshold) {
    template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.ofEntries(
        Map.entry("AlarmName", name),
        Map.entry("Namespace", namespace),
        Map.entry("MetricName", metric),
        Map.entry("Dimensions", List.of(dimension)),
        Map.entry("Statistic", statistic),
        Map.entry("Period", 300),
        Map.entry("EvaluationPeriods", 1),
        Map.entry("Threshold", threshold),
        Map.entry("ComparisonOperator", "GreaterThanThreshold"),
        Map.entry("TreatMissingData", "notBreaching"),
        Map.entry("AlarmActions", List.of(ref(topic)))));
  }

  private Map<String, Object> queueName(String queueName) {
    String queue = Synth.logicalId(template, "AWS::SQS::Queue", Map.of("QueueName", queueName));
    return Map.of("Name", "QueueName", "Value", Map.of("Fn::GetAtt", List.of(queue, "QueueName")));
  }

  private Map<String, Object> functionName() {
    String function = Synth.logicalId(template, "AWS::Lambda::Function", Map.of("FunctionName", "fulfil-order"));
    return Map.of("Name", "FunctionName", "Value", ref(function));
  }
}
