package com.acme.fulfil.infra;

import static com.acme.fulfil.infra.Synth.ref;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.acme.fulfil.contract.oncall.OnCallPhrases;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class AlarmsTest {
  /** CloudWatch refuses a longer AlarmDescription, and the deploy with it. */
  private static final int CLOUDWATCH_DESCRIPTION_MAX = 1024;
  private final Template template = Synth.defaults();
  private final String topic = Synth.logicalId(template, "AWS::SNS::Topic", Map.of("TopicName", "fulfil-order-alarms"));

  /**
   * "A message reached the DLQ", whatever moved it and whatever the DLQ holds, minute by minute: the
   * function's own count, what anything sent (NumberOfMessagesSent, blind to the redrive policy's moves) and
   * the rise of the DLQ's messages, visible and in flight, since the minute before (what the redrive policy
   * moved after a last try the function never counted). An inactive, empty DLQ is not reported: zero before
   * its first datapoint, its last depth in a gap after one.
   */
  @Test
  void anyArrivalInTheDlqPagesWithinMinutesWhateverMovedItAndWhateverTheDlqHolds() {
    Map<String, Object> service = Map.of("Name", "Service", "Value", "fulfil-order");
    Map<String, Object> dlq = queueName("orders-to-fulfil-dlq");
    template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of(
        "AlarmName", "orders-to-fulfil-dlq-new-messages",
        "Threshold", 0,
        "ComparisonOperator", "GreaterThanThreshold",
        "EvaluationPeriods", 5,
        "DatapointsToAlarm", 1,
        "TreatMissingData", "notBreaching",
        "AlarmActions", List.of(ref(topic)),
        "OKActions", List.of(ref(topic))));
    assertQueries("orders-to-fulfil-dlq-new-messages",
        Map.of("ReturnData", true, "Expression",
            "MAX([FILL(counted, 0), FILL(sent, 0), DIFF(FILL(FILL(visible, REPEAT), 0) + FILL(inflight, 0))])"),
        Map.of("Id", "counted", "ReturnData", false, "MetricStat", Map.of("Stat", "Sum", "Period", 60,
            "Metric", Map.of("Namespace", "FulfilOrder", "MetricName", "DeadLettered", "Dimensions", List.of(service)))),
        Map.of("Id", "sent", "ReturnData", false, "MetricStat", Map.of("Stat", "Sum", "Period", 60,
            "Metric", Map.of("Namespace", "AWS/SQS", "MetricName", "NumberOfMessagesSent", "Dimensions", List.of(dlq)))),
        Map.of("Id", "visible", "ReturnData", false, "MetricStat", Map.of("Stat", "Maximum", "Period", 60,
            "Metric", Map.of("Namespace", "AWS/SQS", "MetricName", "ApproximateNumberOfMessagesVisible", "Dimensions", List.of(dlq)))),
        Map.of("Id", "inflight", "ReturnData", false, "MetricStat", Map.of("Stat", "Maximum", "Period", 60,
            "Metric", Map.of("Namespace", "AWS/SQS", "MetricName", "ApproximateNumberOfMessagesNotVisible", "Dimensions", List.of(dlq)))));
  }

  /**
   * CloudWatch notifies on a change of state only, so the text says what one page and its OK stand for:
   * a burst pages once, OK is five minutes without an arrival of any kind, not an empty DLQ.
   */
  @Test
  void theDlqAlarmSaysItPagesOncePerBurstAndWhatItsOkMeans() {
    assertThat(description("orders-to-fulfil-dlq-new-messages"))
        .contains("whatever the DLQ already held", "the function sent them there", "their last of 14 receives failed",
            "Lambda killed, throttled or never ran", "while any of the last 5 minutes had an arrival",
            "OK means 5 minutes in which the function counted none, nothing was sent to the DLQ and its depth did not rise",
            "the next arrival after that pages again", "docs/runbook.md, \"The DLQ alarms\"")
        .doesNotContain("Each arrival pages again");
  }

  /**
   * The DLQ's messages, visible or being read. Its OK is SQS reporting the DLQ empty; when SQS stops reporting
   * (an empty DLQ nothing touches, after six hours) it has insufficient data, never an OK that says "empty".
   */
  @Test
  void aDlqThatHoldsMessagesPagesOnceAndItsOkIsOnlyEverSqsReportingItEmpty() {
    Map<String, Object> dlq = queueName("orders-to-fulfil-dlq");
    template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of(
        "AlarmName", "orders-to-fulfil-dlq-not-empty",
        "Threshold", 0,
        "EvaluationPeriods", 1,
        "TreatMissingData", "missing"));
    assertQueries("orders-to-fulfil-dlq-not-empty",
        Map.of("ReturnData", true, "Expression", "visible + FILL(inflight, 0)"),
        Map.of("Id", "visible", "MetricStat", Map.of("Stat", "Maximum", "Period", 300,
            "Metric", Map.of("Namespace", "AWS/SQS", "MetricName", "ApproximateNumberOfMessagesVisible", "Dimensions", List.of(dlq)))),
        Map.of("Id", "inflight", "MetricStat", Map.of("Stat", "Maximum", "Period", 300,
            "Metric", Map.of("Namespace", "AWS/SQS", "MetricName", "ApproximateNumberOfMessagesNotVisible", "Dimensions", List.of(dlq)))));
    assertThat(description("orders-to-fulfil-dlq-not-empty"))
        .contains("pages once, when SQS first reports messages in it", "its OK means SQS reported the DLQ empty",
            "insufficient data, which pages no one and means neither", "kept 14 days", "docs/runbook.md, \"The DLQ alarms\"");
  }

  /**
   * Orders waiting and nothing taking or finishing any, every five minutes for twice an invocation's longest
   * time (2 x 300 s): a stopped consumer pages within fifteen minutes, whatever the messages' ages.
   */
  @Test
  void ordersWaitingWhileNoneIsReceivedOrDeletedPageWithinFifteenMinutes() {
    Map<String, Object> source = queueName("orders-to-fulfil");
    template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of(
        "AlarmName", "orders-to-fulfil-stalled",
        "Threshold", 0,
        "EvaluationPeriods", 2,
        "DatapointsToAlarm", 2,
        "TreatMissingData", "notBreaching",
        "AlarmActions", List.of(ref(topic))));
    assertQueries("orders-to-fulfil-stalled",
        Map.of("ReturnData", true, "Expression", "IF(waiting > 0 AND FILL(received, 0) + FILL(deleted, 0) == 0, 1, 0)"),
        Map.of("Id", "waiting", "MetricStat", Map.of("Stat", "Minimum", "Period", 300,
            "Metric", Map.of("Namespace", "AWS/SQS", "MetricName", "ApproximateNumberOfMessagesVisible", "Dimensions", List.of(source)))),
        Map.of("Id", "received", "MetricStat", Map.of("Stat", "Sum", "Period", 300,
            "Metric", Map.of("Namespace", "AWS/SQS", "MetricName", "NumberOfMessagesReceived", "Dimensions", List.of(source)))),
        Map.of("Id", "deleted", "MetricStat", Map.of("Stat", "Sum", "Period", 300,
            "Metric", Map.of("Namespace", "AWS/SQS", "MetricName", "NumberOfMessagesDeleted", "Dimensions", List.of(source)))));
    assertThat(description("orders-to-fulfil-stalled")).contains("For 10 minutes orders were waiting", "none was received or deleted",
        "docs/runbook.md, \"Messages sitting\"");
  }

  @Test
  void theStallWindowFollowsTheFunctionsTimeout() {
    Template longer = Template.fromStack(Synth.stack(Map.of("functionTimeoutSeconds", "600")));
    longer.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of("AlarmName", "orders-to-fulfil-stalled",
        "EvaluationPeriods", 4, "DatapointsToAlarm", 4));
  }

  /** The function's count of bookings the partner made after the hold (issue 39): one in five minutes pages. */
  @Test
  void aBookingTheParterMadeAfterTheHoldPagesAndSaysWhatItMeans() {
    assertAlarm("fulfil-order-booked-after-hold", "FulfilOrder", "BookingAdoptedAfterHold",
        Map.of("Name", "Service", "Value", "fulfil-order"), "Sum", 0);
    assertThat(description("fulfil-order-booked-after-hold")).contains("after its late-booking hold of 305 s",
        "later than its contract's 300 s", "a second courier is possible", "ask the partner",
        "docs/runbook.md, \"A booking after its hold\"");
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

  /** Every other alarm's text: what fired, and the section that says what to do. */
  @Test
  void eachOtherAlarmsTextSaysWhatItsPageMeans() {
    Map<String, List<String>> says = Map.of(
        "orders-to-fulfil-in-flight-near-cap", List.of("More than 100,000 messages", "docs/runbook.md, \"In flight near the cap\""),
        "orders-to-fulfil-backlog", List.of("More than 188 orders have waited", "for five minutes", "docs/runbook.md, \"A backlog\""),
        "fulfil-order-errors", List.of("failed as a whole", "docs/runbook.md, \"Function errors\""),
        "fulfil-order-throttles", List.of("more invocations than its reserved concurrency", "costs its messages a receive",
            "docs/runbook.md, \"Throttles\""),
        // A rotated key fails every try too: the page says the words the function's line ends with, and where to go.
        "fulfil-order-partner-failing", List.of("failed and none booked in 3 of the last 5 minutes", "docs/runbook.md, \"Partner outage\"",
            "\"" + OnCallPhrases.ROTATE_THE_SECRET + "\"", "docs/runbook.md, \"Partner API key rotation\""));
    says.forEach((alarm, phrases) -> assertThat(description(alarm)).as(alarm).contains(phrases));
  }

  /** The description is the first thing on-call reads: what fired, and which runbook section to open, by its title. */
  @Test
  void everyAlarmSaysWhatFiredAndWhichRunbookSectionToOpenAndPagesWhenItClearsToo() {
    Map<String, Map<String, Object>> alarms = template.findResources("AWS::CloudWatch::Alarm");
    assertThat(alarms).hasSize(AlarmNames.ALL.size());
    alarms.values().forEach(alarm -> {
      @SuppressWarnings("unchecked")
      Map<String, Object> properties = (Map<String, Object>) alarm.get("Properties");
      assertThat((String) properties.get("AlarmDescription")).as("%s", properties.get("AlarmName"))
          .containsPattern("docs/runbook.md, \"[^\"]+\"").doesNotContain("failed 5 times")
          .hasSizeLessThanOrEqualTo(CLOUDWATCH_DESCRIPTION_MAX);
      assertThat(properties.get("OKActions")).as("%s", properties.get("AlarmName")).isEqualTo(List.of(ref(topic)));
    });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of("AlarmName", "orders-to-fulfil-dlq-new-messages",
        "AlarmDescription", Match.stringLikeRegexp(".*docs/runbook.md, \"The DLQ alarms\"\\.")));
    template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of("AlarmName", "fulfil-order-partner-failing",
        "AlarmDescription", Match.stringLikeRegexp(".*docs/runbook.md, \"Partner outage\".*")));
  }

  /**
   * SQS's ApproximateAgeOfOldestMessage leaves out messages received three or more times: the alarm fires
   * on what it can see, an order older than two tries and their waits (2 x (300 s + 1,800 s)) plus the
   * backlog window (900 s) that SQS still ages, one nobody receives, and says it cannot see retrying orders.
   */
  @Test
  void anOrderNotReceivedForLongerThanTwoTriesTakeAndAMarginNotifiesOnCall() {
    assertAlarm("orders-to-fulfil-oldest-message-too-old", "AWS/SQS", "ApproximateAgeOfOldestMessage",
        queueName("orders-to-fulfil"), "Maximum", 5100);
    assertThat(description("orders-to-fulfil-oldest-message-too-old"))
        .contains("more than 85 minutes", "plus 15 minutes behind a backlog", "SQS ages only messages received fewer than three times",
            "not orders that are retrying");
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

  /** AWS does not emit DroppedEventCount for an SQS event source mapping: an alarm on it could never page. */
  @Test
  void noAlarmWatchesAMetricAnSqsMappingNeverEmits() {
    template.resourcePropertiesCountIs("AWS::CloudWatch::Alarm", Map.of("MetricName", "DroppedEventCount"), 0);
  }

  /**
   * The topic's policy replaces SNS's default one: beside the TLS Deny it lets CloudWatch publish, for this
   * account's alarms of this stack only, each by its ARN.
   */
  @Test
  void alarmTopicLetsThisStacksAlarmsPublishAndRefusesPublishingWithoutTls() {
    // The stack is pinned to the committed account and region, so its alarms' ARNs are literal.
    List<Object> alarmArns = AlarmNames.ALL.stream().sorted().<Object>map(name -> "arn:aws:cloudwatch:" + Synth.AWS_REGION
        + ":" + Synth.AWS_ACCOUNT + ":alarm:" + name).toList();
    template.hasResourceProperties("AWS::SNS::TopicPolicy", Map.of(
        "Topics", List.of(ref(topic)),
        "PolicyDocument", Map.of("Statement", List.of(
            Map.of(
                "Effect", "Deny",
                "Principal", "*",
                "Action", "sns:Publish",
                "Resource", ref(topic),
                "Condition", Map.of("Bool", Map.of("aws:SecureTransport", "false"))),
            Match.objectEquals(Map.of(
                "Sid", "CloudWatchAlarmsOfThisStackPublish",
                "Effect", "Allow",
                "Principal", Map.of("Service", "cloudwatch.amazonaws.com"),
                "Action", "sns:Publish",
                "Resource", ref(topic),
                "Condition", Map.of(
                    "StringEquals", Map.of("aws:SourceAccount", Synth.AWS_ACCOUNT),
                    "ArnLike", Map.of("aws:SourceArn", alarmArns))))))));
  }

  @Test
  void theCommittedAlarmEmailIsSubscribedToTheTopic() {
    template.resourceCountIs("AWS::SNS::Subscription", 1);
    template.hasResourceProperties("AWS::SNS::Subscription", Match.objectEquals(Map.of(
        "Protocol", "email",
        "Endpoint", Synth.ALARM_EMAIL,
        "TopicArn", ref(topic))));
  }

  @Test
  void withoutAnAlarmEmailSynthRefusesToDeploy() {
    assertThat(Synth.refusal(Map.of("alarmEmail", ""))).contains("alarmEmail is not set: commit on-call's address in infra/cdk.json",
        "would remove the alarm topic's subscription");
  }

  @SuppressWarnings("unchecked")
  private String description(String alarm) {
    return template.findResources("AWS::CloudWatch::Alarm", Map.of("Properties", Map.of("AlarmName", alarm))).values()
        .stream().map(resource -> (String) ((Map<String, Object>) resource.get("Properties")).get("AlarmDescription"))
        .findFirst().orElseThrow();
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
