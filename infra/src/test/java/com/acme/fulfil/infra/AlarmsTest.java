package com.acme.fulfil.infra;

import static com.acme.fulfil.infra.Synth.ref;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.timing.AlarmNames;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class AlarmsTest {
  private final Template template = Synth.defaults();
  private final String topic = Synth.logicalId(template, "AWS::SNS::Topic", Map.of("TopicName", "fulfil-order-alarms"));

  /**
   * Every new dead letter pages, even while older ones wait: the alarm counts arrivals in each period,
   * not the DLQ's depth (which kept it in ALARM, paging once). SQS's NumberOfMessagesSent counts only
   * messages sent to the DLQ directly (the function's poison, on its first receive), not those the
   * redrive policy moves there, so the visible count's rise stands for those.
   */
  @Test
  void everyNewDeadLetterPagesAgainWhetherTheFunctionSentItOrTheRedrivePolicyMovedIt() {
    Map<String, Object> dlq = queueName("orders-to-fulfil-dlq");
    template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of(
        "AlarmName", "orders-to-fulfil-dlq-new-messages",
        "Threshold", 0,
        "ComparisonOperator", "GreaterThanThreshold",
        "EvaluationPeriods", 1,
        "OKActions", List.of(ref(topic)),
        "AlarmActions", List.of(ref(topic))));
    assertQueries("orders-to-fulfil-dlq-new-messages",
        Map.of("ReturnData", true,
                "Expression", "FILL(sent, 0) + IF(DIFF(FILL(visible, 0)) > 0, DIFF(FILL(visible, 0)), 0)"),
            Map.of("Id", "sent", "ReturnData", false, "MetricStat", Map.of("Stat", "Sum", "Period", 300,
                "Metric", Map.of("Namespace", "AWS/SQS", "MetricName", "NumberOfMessagesSent", "Dimensions", List.of(dlq)))),
            Map.of("Id", "visible", "ReturnData", false, "MetricStat", Map.of("Stat", "Maximum", "Period", 300,
                "Metric", Map.of("Namespace", "AWS/SQS", "MetricName", "ApproximateNumberOfMessagesVisible",
                    "Dimensions", List.of(dlq)))));
  }

  /**
   * A partner outage pages within minutes: three minutes out of five in which tries failed and none
   * booked. One bad minute (a blip the retries absorb) does not page.
   */
  @Test
  void triesThatFailWhileNoneBooksPageWithinMinutesButNotForOneBadMinute() {
    Map<String, Object> service = Map.of("Name", "Service", "Value", "fulfil-order");
    template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of(
        "AlarmName", "fulfil-order-partner-failing",
        "Threshold", 0,
        "ComparisonOperator", "GreaterThanThreshold",
        "EvaluationPeriods", 5,
        "DatapointsToAlarm", 3,
        "TreatMissingData", "notBreaching",
        "OKActions", List.of(ref(topic))));
    assertQueries("fulfil-order-partner-failing",
        Map.of("ReturnData", true,
                "Expression", "IF(FILL(failed, 0) > 0 AND FILL(booked, 0) + FILL(adopted, 0) == 0, 1, 0)"),
            Map.of("Id", "failed", "ReturnData", false, "MetricStat", Map.of("Stat", "Sum", "Period", 60,
                "Metric", Map.of("Namespace", "FulfilOrder", "MetricName", "TransientFailure", "Dimensions", List.of(service)))),
            Map.of("Id", "booked", "ReturnData", false, "MetricStat", Map.of("Stat", "Sum", "Period", 60,
                "Metric", Map.of("Namespace", "FulfilOrder", "MetricName", "OrderBooked", "Dimensions", List.of(service)))),
            Map.of("Id", "adopted", "ReturnData", false, "MetricStat", Map.of("Stat", "Sum", "Period", 60,
                "Metric", Map.of("Namespace", "FulfilOrder", "MetricName", "BookingAdopted", "Dimensions", List.of(service)))));
  }

  /** The alarm's metric math: each query present, in whatever order CDK writes them. */
  @SafeVarargs
  private void assertQueries(String alarm, Map<String, Object>... queries) {
    for (Map<String, Object> query : queries) {
      template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of("AlarmName", alarm,
          "Metrics", Match.arrayWith(List.of(Match.objectLike(query)))));
    }
  }

  /** The description is the first thing on-call reads: what fired, and which runbook section to open. */
  @Test
  void everyAlarmSaysWhatFiredAndWhichRunbookSectionToOpenAndPagesWhenItClearsToo() {
    Map<String, Map<String, Object>> alarms = template.findResources("AWS::CloudWatch::Alarm");
    assertThat(alarms).hasSize(AlarmNames.ALL.size());
    alarms.values().forEach(alarm -> {
      @SuppressWarnings("unchecked")
      Map<String, Object> properties = (Map<String, Object>) alarm.get("Properties");
      assertThat((String) properties.get("AlarmDescription")).as("%s", properties.get("AlarmName"))
          .containsPattern("runbook section \\d+").doesNotContain("failed 5 times");
      assertThat(properties.get("OKActions")).as("%s", properties.get("AlarmName")).isEqualTo(List.of(ref(topic)));
    });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of("AlarmName", "orders-to-fulfil-dlq-new-messages",
        "AlarmDescription", Match.stringLikeRegexp(".*runbook section 2.*")));
    template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of("AlarmName", "fulfil-order-partner-failing",
        "AlarmDescription", Match.stringLikeRegexp(".*runbook section 7.*")));
  }

  @Test
  void aMessageOlderThanTheRetryHorizonNotifiesOnCall() {
    // 1,800 s visibility x 5 receives: by then every message is booked or in the DLQ.
    assertAlarm("orders-to-fulfil-oldest-message-too-old", "AWS/SQS", "ApproximateAgeOfOldestMessage",
        queueName("orders-to-fulfil"), "Maximum", 25200);
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
  void aBatchOfTenSetsTheBacklogThresholdAtWhatItsSlowestRecordsLetItBook() {
    // 10 invocations x 10 orders x 3600 s / 103 s (the slowest of ten, not one order's 48 s) = 3,495 an hour.
    Template batched = Template.fromStack(Synth.stack(Map.of("batchSize", "10")));
    batched.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of("AlarmName", "orders-to-fulfil-backlog", "Threshold", 874));
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
        Map.entry("AlarmActions", List.of(ref(topic))),
        Map.entry("OKActions", List.of(ref(topic)))));
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
