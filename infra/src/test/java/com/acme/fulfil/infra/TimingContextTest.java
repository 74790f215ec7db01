package com.acme.fulfil.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** {@code cdk deploy -c name=value} either yields a consistent stack or stops synth with the reason. */
class TimingContextTest {

  @Test
  void incidentConfigurationStopsSynthWithTheSentenceNotAStackTrace() {
    String printed = Synth.refusal(Map.of("visibilityTimeoutSeconds", "30", "functionTimeoutSeconds", "300"));

    assertThat(printed)
        .startsWith("fulfil-order: cdk synth stopped, nothing was synthesized.")
        .contains("visibilityTimeoutSeconds is 30 s but must be at least 6 x functionTimeoutSeconds (300 s)"
            + " + batchingWindowSeconds (0 s) = 1800 s")
        .contains("the partner books a second courier")
        .doesNotContain("\tat ", "Exception");
  }

  @Test
  void longerFunctionTimeoutAloneYieldsAConsistentStack() {
    Template template = Template.fromStack(Synth.stack(Map.of("functionTimeoutSeconds", "600")));

    template.hasResourceProperties("AWS::Lambda::Function", Map.of("FunctionName", "fulfil-order", "Timeout", 600));
    template.hasResourceProperties("AWS::SQS::Queue", Map.of("QueueName", "orders-to-fulfil", "VisibilityTimeout", 3600));
    template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of(
        "AlarmName", "orders-to-fulfil-oldest-message-too-old", "Threshold", 9_300)); // 2 x (600 s + 3,600 s) + 900 s
  }

  @Test
  void functionTimeoutThatAPartnerCallCanOutlastIsRefused() {
    assertThat(Synth.refusal(Map.of("functionTimeoutSeconds", "291")))
        .contains("functionTimeoutSeconds is 291 s but must be longer than 295 s");
  }

  @Test
  void batchOfTenWithABatchingWindowWidensTheVisibilityAndTheMapping() {
    Template template = Template.fromStack(Synth.stack(Map.of("batchSize", "10", "batchingWindowSeconds", "20")));

    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", Map.of(
        "BatchSize", 10,
        "MaximumBatchingWindowInSeconds", 20,
        "FunctionResponseTypes", List.of("ReportBatchItemFailures")));
    template.hasResourceProperties("AWS::SQS::Queue", Map.of("QueueName", "orders-to-fulfil", "VisibilityTimeout", 1820));
  }

  @Test
  void fewerReceivesShortenTheRedriveButNotTheAgeSqsSees() {
    // Numbers in cdk.json arrive as JSON numbers, not strings.
    Template template = Template.fromStack(Synth.stack(Map.of("maxReceiveCount", 3, "retryHorizonSeconds", 20, "maxConcurrency", 2.0)));

    template.hasResourceProperties("AWS::SQS::Queue", Map.of(
        "QueueName", "orders-to-fulfil",
        "RedrivePolicy", Map.of("maxReceiveCount", 3)));
    template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of(
        "AlarmName", "orders-to-fulfil-oldest-message-too-old", "Threshold", 5100));
    template.hasResourceProperties("AWS::Lambda::Function", Map.of(
        "Environment", Map.of("Variables", Map.of("MAX_RECEIVE_COUNT", "3"))));
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", Map.of(
        "ScalingConfig", Match.objectEquals(Map.of("MaximumConcurrency", 2))));
  }

  @Test
  void timingAndDeploymentProblemsAreReportedTogether() {
    String printed = Synth.refusal(Map.of("maxReceiveCount", "1", "partnerBaseUrl", "", "maxConcurrency", "1"));

    assertThat(printed)
        .contains("maxReceiveCount is 1 but must be from 2 to 1000")
        .contains("partnerBaseUrl is not set")
        .contains("maxConcurrency is 1 but the event source mapping accepts 2 to 1000");
  }

  @Test
  void synthPrintsTheCapacityOfTheNumbersItDeploys() {
    assertThat(Synth.printedBySynth(Map.of("maxConcurrency", "20")))
        .contains("fulfil-order: capacity: the stack books about 1,500 orders an hour on a normal partner day (48 s an order)"
            + " and 252 at the worst case the budget absorbs (285 s an order)")
        .contains("the backlog alarm fires above 375 waiting orders")
        .contains("no peakOrdersPerHour set");
  }

  @Test
  void synthPrintsABatchsCapacityAtItsSlowestRecord() {
    assertThat(Synth.printedBySynth(Map.of("batchSize", "10")))
        .contains("the stack books about 3,495 orders an hour on a normal partner day (103 s a round of 10 side by side,"
            + " its slowest)")
        .contains("the backlog alarm fires above 874 waiting orders");
  }

  @Test
  void aPeakTheStackCannotBookAtThePartnersWorstStopsSynthNamingWhatToRaise() {
    String printed = Synth.refusal(Map.of("peakOrdersPerHour", "300"));

    assertThat(printed)
        .startsWith("fulfil-order: cdk synth stopped, nothing was synthesized.")
        .contains("peakOrdersPerHour is 300 but at the partner's worst case (285 s an order")
        .contains("maxConcurrency 10 x batchSize 1 books 126 orders an hour")
        .contains("raise maxConcurrency to at least 24")
        .doesNotContain("\tat ", "Exception");
  }

  @Test
  void aPeakTheRaisedConcurrencyBooksIsDeployed() {
    assertThat(Synth.printedBySynth(Map.of("peakOrdersPerHour", "300", "maxConcurrency", "24")))
        .contains("peakOrdersPerHour 300 fits at the worst case");
  }

  @Test
  void settingThatIsNotANumberIsNamed() {
    assertThat(Synth.refusal(Map.of("functionTimeoutSeconds", "five minutes")))
        .contains("functionTimeoutSeconds must be a whole number, got 'five minutes'.");
  }
}
