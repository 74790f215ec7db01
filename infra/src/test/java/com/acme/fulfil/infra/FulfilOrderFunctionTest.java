package com.acme.fulfil.infra;

import static org.assertj.core.api.Assertions.assertThat;

import static com.acme.fulfil.infra.Synth.arnOf;
import static com.acme.fulfil.infra.Synth.ref;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class FulfilOrderFunctionTest {
  private final Template template = Synth.defaults();
  private final String function = Synth.logicalId(template, "AWS::Lambda::Function", Map.of("FunctionName", "fulfil-order"));

  @Test
  void functionRunsTheHandlersZipOnJava25Arm64ForFiveMinutesIn512Mb() {
    template.hasResourceProperties("AWS::Lambda::Function", Map.of(
        "FunctionName", "fulfil-order",
        "Handler", "com.acme.fulfil.handler.FulfilOrderHandler::handleRequest",
        "Runtime", "java25",
        "Architectures", List.of("arm64"),
        "Timeout", 300,
        "MemorySize", 512,
        "Code", Map.of("S3Key", Match.stringLikeRegexp(".*\\.zip"))));
  }

  @Test
  void snapStartSnapshotsPublishedVersionsAndTheLiveAliasPointsAtTheCurrentOne() {
    template.hasResourceProperties("AWS::Lambda::Function", Map.of(
        "FunctionName", "fulfil-order",
        "SnapStart", Map.of("ApplyOn", "PublishedVersions")));
    String version = Synth.logicalId(template, "AWS::Lambda::Version", Map.of("FunctionName", ref(function)));
    template.hasResourceProperties("AWS::Lambda::Alias", Match.objectEquals(Map.of(
        "Name", "live",
        "FunctionName", ref(function),
        "FunctionVersion", Map.of("Fn::GetAtt", List.of(version, "Version")))));
  }

  /** The mapping invokes live's published version: the level is part of it, so cdk.json and a deploy set it. */
  @Test
  void theLogLevelComesFromCdkJson() {
    Template debug = Template.fromStack(Synth.stack(Map.of("logLevel", "DEBUG")));
    debug.hasResourceProperties("AWS::Lambda::Function", Map.of("FunctionName", "fulfil-order",
        "Environment", Map.of("Variables", Map.of("FULFIL_LOG_LEVEL", "DEBUG"))));
  }

  /**
   * Each code or configuration change gives the version a new logical id; without a retain policy
   * CloudFormation deletes the old version while it cleans up the deploy, and the runbook's rollback
   * (point live at the previous version) finds nothing to point at.
   */
  @Test
  void aDeployKeepsThePreviousVersionsForARollback() {
    template.hasResource("AWS::Lambda::Version", Map.of(
        "Properties", Map.of("FunctionName", ref(function)),
        "DeletionPolicy", "Retain",
        "UpdateReplacePolicy", "Retain"));
  }

  @Test
  void environmentCarriesTheBudgetTheTableThePartnerAndTheSecret() {
    String table = Synth.logicalId(template, "AWS::DynamoDB::Table", Map.of("TableName", "fulfil-order-idempotency"));
    String dlq = Synth.logicalId(template, "AWS::SQS::Queue", Map.of("QueueName", "orders-to-fulfil-dlq"));
    template.hasResourceProperties("AWS::Lambda::Function", Map.of(
        "FunctionName", "fulfil-order",
        "Environment", Match.objectEquals(Map.of("Variables", Map.ofEntries(
            Map.entry("PARTNER_WORST_CASE_MS", "280000"),
            Map.entry("PARTNER_DEADLINE_MARGIN_MS", "10000"),
            Map.entry("PARTNER_LOOKUP_TIMEOUT_MS", "5000"),
            Map.entry("PARTNER_LATE_BOOKING_HOLD_MS", "305000"),
            Map.entry("RECORD_CONCURRENCY", "10"),
            Map.entry("MAX_RECEIVE_COUNT", "14"),
            Map.entry("RETRY_FIRST_BACKOFF_MS", "5000"),
            Map.entry("RETRY_LONGEST_BACKOFF_MS", "1800000"),
            Map.entry("RETRY_JITTER_PERCENT", "20"),
            Map.entry("RETRY_AFTER_LOCK_MS", "5000"),
            Map.entry("IDEMPOTENCY_TTL_SECONDS", "1814400"),
            Map.entry("IDEMPOTENCY_TABLE_NAME", ref(table)),
            Map.entry("PARTNER_BASE_URL", Synth.PARTNER_BASE_URL),
            Map.entry("PARTNER_API_KEY_SECRET_ID", Synth.PARTNER_API_KEY_SECRET_ARN),
            Map.entry("DEAD_LETTER_QUEUE_URL", ref(dlq)),
            Map.entry("FULFIL_LOG_LEVEL", "INFO"),
            Map.entry("POWERTOOLS_SERVICE_NAME", "fulfil-order"),
            Map.entry("POWERTOOLS_METRICS_NAMESPACE", "FulfilOrder"),
            // Set explicitly: java25 with SnapStart would otherwise run C2 too (docs/performance.md, measured).
            Map.entry("JAVA_TOOL_OPTIONS", "-XX:+TieredCompilation -XX:TieredStopAtLevel=1"))))));
  }

  /**
   * JSON, so Lambda's own records are JSON objects Logs Insights filters beside the function's lines, and
   * their level is set: INFO for both, since the function's metric lines carry no level and Lambda files
   * them as INFO.
   */
  @Test
  void functionLogsJsonToItsOwnLogGroupKeptThirtyDays() {
    String logGroup = Synth.logicalId(template, "AWS::Logs::LogGroup", Map.of(
        "LogGroupName", "/aws/lambda/fulfil-order",
        "RetentionInDays", 30));
    template.hasResourceProperties("AWS::Lambda::Function", Map.of(
        "FunctionName", "fulfil-order",
        "LoggingConfig", Match.objectEquals(Map.of("LogGroup", ref(logGroup), "LogFormat", "JSON",
            "ApplicationLogLevel", "INFO", "SystemLogLevel", "INFO"))));
  }

  /** DEBUG lines asked for in cdk.json reach CloudWatch; WARN never filters out the INFO-filed metric lines. */
  @Test
  void lambdasApplicationLogLevelFollowsTheFunctionsButNeverAboveInfo() {
    Template debug = Template.fromStack(Synth.stack(Map.of("logLevel", "DEBUG")));
    debug.hasResourceProperties("AWS::Lambda::Function", Map.of("FunctionName", "fulfil-order",
        "LoggingConfig", Map.of("ApplicationLogLevel", "DEBUG")));
    Template warn = Template.fromStack(Synth.stack(Map.of("logLevel", "WARN")));
    warn.hasResourceProperties("AWS::Lambda::Function", Map.of("FunctionName", "fulfil-order",
        "LoggingConfig", Map.of("ApplicationLogLevel", "INFO")));
  }

  /**
   * The mapping's cap and two more, reserved: other functions cannot take the account's concurrency from it,
   * the maximum concurrency never exceeds the reservation (which would throttle the mapping, each throttle
   * costing a receive), and a person's test invoke runs beside the mapping instead of throttling it.
   */
  @Test
  void theFunctionReservesTheMappingsConcurrencyAndHeadroomForATestInvoke() {
    template.hasResourceProperties("AWS::Lambda::Function", Map.of("FunctionName", "fulfil-order",
        "ReservedConcurrentExecutions", 12));
    Template raised = Template.fromStack(Synth.stack(Map.of("maxConcurrency", "20")));
    raised.hasResourceProperties("AWS::Lambda::Function", Map.of("FunctionName", "fulfil-order",
        "ReservedConcurrentExecutions", 22));
    raised.hasResourceProperties("AWS::Lambda::EventSourceMapping", Map.of(
        "ScalingConfig", Match.objectEquals(Map.of("MaximumConcurrency", 20))));
  }

  @Test
  void synthRefusesAMappingConcurrencyWhoseReservationWouldPassTheMappingsLimit() {
    assertThat(Synth.refusal(Map.of("maxConcurrency", "999"))).contains("maxConcurrency is 999 but the event source"
        + " mapping accepts 2 to 1000, and the function reserves 2 more than it", "so at most 998");
  }

  /** A deploy leaves the mapping as cdk.json commits it: paused while on-call keeps it paused. */
  @Test
  void theMappingRunsOrStaysPausedAsCommitted() {
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", Map.of("Enabled", true));
    Template.fromStack(Synth.stack(Map.of("mappingEnabled", false)))
        .hasResourceProperties("AWS::Lambda::EventSourceMapping", Map.of("Enabled", false));
  }

  @Test
  void queueFeedsTheLiveAliasOneOrderAtATimeReportingSingleFailures() {
    String queue = Synth.logicalId(template, "AWS::SQS::Queue", Map.of("QueueName", "orders-to-fulfil"));
    String alias = Synth.logicalId(template, "AWS::Lambda::Alias", Map.of("Name", "live"));
    // The alias's function name and qualifier, not the bare function: $LATEST has no SnapStart snapshot.
    Map<String, Object> liveAlias = Map.of("Fn::Join", List.of("", List.of(
        Map.of("Fn::Select", List.of(6, Map.of("Fn::Split", List.of(":", ref(alias))))), ":live")));
    template.resourceCountIs("AWS::Lambda::EventSourceMapping", 1);
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", Map.of(
        "EventSourceArn", arnOf(queue),
        "FunctionName", Match.objectEquals(liveAlias),
        "BatchSize", 1,
        "MaximumBatchingWindowInSeconds", 0,
        "FunctionResponseTypes", List.of("ReportBatchItemFailures"),
        "ScalingConfig", Match.objectEquals(Map.of("MaximumConcurrency", 10))));
  }

  @Test
  void theMappingPublishesItsOwnEventCounts() {
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", Map.of(
        "MetricsConfig", Match.objectEquals(Map.of("Metrics", List.of("EventCount")))));
  }
}
