package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueSettings;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.contract.AlarmNames;
import com.acme.fulfil.contract.OrderLogFields;
import com.acme.fulfil.contract.TimingBudget;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;

/**
 * {@code ./fulfil-ops} the way on-call runs it against a deployed stack: names from the stack's
 * outputs, the function's configuration and mapping from Lambda, alarms from CloudWatch, subscribers
 * from SNS (answered by {@link FakeControlPlane} as AWS documents them), queues and table on the
 * real (emulated) SQS and DynamoDB, created as the CDK stack creates them from the default budget.
 * {@code check} must find what someone clicked in the console, each in one sentence.
 */
@OnSelectedBackend
class FulfilOpsOnAwsTest {
  private static final TimingBudget BUDGET = TimingBudget.defaults();
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The settings every deploy reads, as committed: the environment's values left to the team. */
  private static final Path COMMITTED_SETTINGS = committedSettings();
  /** The committed settings with the environment's values this fake stack was deployed with. */
  private static Path deployedSettings;

  @AutoClose
  private static FakeControlPlane aws;
  private static Map<String, String> env;
  private static OrdersQueues queues;
  private static software.amazon.awssdk.services.sqs.SqsClient sqs;

  @BeforeAll
  static void deploy(AwsBackend backend) throws Exception {
    var connection = backend.connection();
    OrdersStack stack = new OrdersStack(connection.sqsClient(), connection.dynamoDbClient(), connection.secretsManagerClient());
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    sqs = connection.sqsClient();
    queues = stack.createQueues("orders-to-fulfil-" + suffix, new QueueSettings(BUDGET.visibilityTimeout(),
        BUDGET.sourceRetention(), Optional.of(new QueueSettings.Redrive(BUDGET.maxReceiveCount(), BUDGET.dlqRetention()))));
    String table = "fulfil-order-idempotency-" + suffix;
    stack.createIdempotencyTable(table);
    aws = new FakeControlPlane(Map.of("QueueUrl", queues.source().url(), "DlqUrl", queues.deadLetter().orElseThrow().url(),
        "IdempotencyTableName", table, "PartnerApiKeySecretArn", FakeControlPlane.SECRET_ARN),
        BUDGET, queues.source().arn());
    env = new HashMap<>(connection.functionEnvironment());
    env.putAll(aws.endpoints());
    ObjectNode cdkJson = (ObjectNode) JSON.readTree(COMMITTED_SETTINGS.toFile());
    ((ObjectNode) cdkJson.path("context")).put("partnerBaseUrl", FakeControlPlane.PARTNER_BASE_URL)
        .put("partnerApiKeySecretArn", FakeControlPlane.SECRET_ARN).put("alarmEmail", FakeControlPlane.ALARM_EMAIL);
    deployedSettings = Files.createTempFile("cdk", ".json");
    deployedSettings.toFile().deleteOnExit();
    JSON.writeValue(deployedSettings.toFile(), cdkJson);
    env.put(DeployedSettings.FILE_VARIABLE, deployedSettings.toString());
  }

  @BeforeEach
  void asDeployed() {
    aws.mappingState = "Enabled";
    aws.functionTimeoutSeconds = (int) BUDGET.functionTimeout().toSeconds();
    aws.functionPartnerBaseUrl = FakeControlPlane.PARTNER_BASE_URL;
    aws.mappingMetrics.clear();
    aws.mappingMetrics.add("EventCount");
    aws.alarms.clear();
    aws.alarms.addAll(AlarmNames.ALL);
    aws.subscriptions.clear();
    aws.subscriptions.add(FakeControlPlane.TOPIC + ":0f6c7d1e-oncall");
    aws.metrics.clear();
    aws.mappingMaximumConcurrency = 10;
    aws.functionMemoryMb = 512;
    aws.functionLogLevel = "INFO";
    aws.functionTracing = "PassThrough";
    aws.alarmThresholds.clear();
    aws.alarmThresholds.putAll(DeployedSettings.read(COMMITTED_SETTINGS).alarmThresholds());
    aws.alarmsWithoutOkAction.clear();
  }

  /**
   * Everything the stack sets that someone could change in the console, against the committed
   * infra/cdk.json: the partner's cap on the mapping, the function's memory, log level and tracing,
   * each alarm's threshold and its OK action. None of it was compared before.
   */
  @Test
  void checkComparesTheMappingsCapTheFunctionAndEveryAlarmWithCdkJson() throws Exception {
    aws.mappingMaximumConcurrency = 50;
    aws.functionMemoryMb = 1024;
    aws.functionLogLevel = "DEBUG";
    aws.functionTracing = "Active";
    aws.alarmThresholds.put(AlarmNames.BACKLOG, 5000.0);
    aws.alarmThresholds.put(AlarmNames.OLDEST_MESSAGE_TOO_OLD, 86_400.0);
    aws.alarmsWithoutOkAction.add(AlarmNames.DLQ_NEW_MESSAGES);

    OpsRun check = new OpsRun(env, "check");
    assertThat(check.exitCode()).as(check.out() + check.err()).isEqualTo(1);
    assertThat(check.out())
        .contains("the event source mapping's maximum concurrency is 50, infra/cdk.json says 10")
        .contains("the function's memory is 1024 MB, infra/cdk.json says 512 MB")
        .contains("the function's FULFIL_LOG_LEVEL is DEBUG, infra/cdk.json says INFO")
        .contains("the function's tracing is Active, infra/cdk.json says PassThrough")
        .contains("the alarm " + AlarmNames.BACKLOG + " fires above 5000, infra/cdk.json says above 188")
        .contains("the alarm " + AlarmNames.OLDEST_MESSAGE_TOO_OLD + " fires above 86400, infra/cdk.json says above 4200")
        .contains("the alarm " + AlarmNames.DLQ_NEW_MESSAGES + " does not notify " + FakeControlPlane.TOPIC + " when it clears");
    assertThat(JSON.readTree(new OpsRun(env, "check", "--json").out()).path("findings")).hasSize(7);
  }

  /**
   * What on-call relies on is compared with what cdk.json commits: a mapping paused by hand and committed
   * as paused is no drift; a subscription to someone else, or a file without the environment's values
   * (synth refuses it), is.
   */
  @Test
  void checkComparesTheMappingStateTheSubscriptionAndTheEnvironmentsValuesWithCdkJson(@TempDir Path dir) throws Exception {
    aws.mappingState = "Disabled";
    ObjectNode cdkJson = (ObjectNode) JSON.readTree(deployedSettings.toFile());
    ((ObjectNode) cdkJson.path("context")).put("mappingEnabled", false).put("alarmEmail", "someone-else@example.com");
    Path paused = dir.resolve("cdk.json");
    JSON.writeValue(paused.toFile(), cdkJson);
    Map<String, String> pausedAndCommitted = new HashMap<>(env);
    pausedAndCommitted.put(DeployedSettings.FILE_VARIABLE, paused.toString());

    OpsRun check = new OpsRun(pausedAndCommitted, "check");
    assertThat(check.out()).doesNotContain("is Disabled")
        .contains("someone-else@example.com, whom infra/cdk.json commits, is not subscribed to " + FakeControlPlane.TOPIC);
    assertThat(JSON.readTree(new OpsRun(pausedAndCommitted, "check", "--json").out()).path("findings")).hasSize(1);

    aws.mappingState = "Enabled";
    Map<String, String> asCommitted = new HashMap<>(env);
    asCommitted.put(DeployedSettings.FILE_VARIABLE, COMMITTED_SETTINGS.toString());
    OpsRun withoutValues = new OpsRun(asCommitted, "check");
    assertThat(withoutValues.exitCode()).isEqualTo(1);
    assertThat(withoutValues.out()).contains("infra/cdk.json commits no partnerBaseUrl: synth refuses to deploy from it",
        "infra/cdk.json commits no partnerApiKeySecretArn", "infra/cdk.json commits no alarmEmail");
  }

  @Test
  void checkFindsAMappingWhoseCapWasRemoved() throws Exception {
    aws.mappingMaximumConcurrency = null;

    OpsRun check = new OpsRun(env, "check");
    assertThat(check.exitCode()).isEqualTo(1);
    assertThat(check.out()).contains("has no maximum concurrency, infra/cdk.json says 10: nothing caps the partner's calls");
  }

  /** A deploy reads cdk.json, and so does check: a raised cap there and an old one deployed is drift. */
  @Test
  void checkComparesWithTheSettingsCommittedInCdkJsonNotWithDefaults(@TempDir Path dir) throws Exception {
    ObjectNode cdkJson = (ObjectNode) JSON.readTree(deployedSettings.toFile());
    ((ObjectNode) cdkJson.path("context")).put("maxConcurrency", 20);
    Path raised = dir.resolve("cdk.json");
    JSON.writeValue(raised.toFile(), cdkJson);
    Map<String, String> withRaisedCap = new HashMap<>(env);
    withRaisedCap.put(DeployedSettings.FILE_VARIABLE, raised.toString());

    OpsRun check = new OpsRun(withRaisedCap, "check");
    assertThat(check.exitCode()).as(check.out() + check.err()).isEqualTo(1);
    assertThat(check.out())
        .contains("the event source mapping's maximum concurrency is 10, infra/cdk.json says 20")
        .contains("the alarm " + AlarmNames.BACKLOG + " fires above 188, infra/cdk.json says above 375");
    assertThat(JSON.readTree(new OpsRun(withRaisedCap, "check", "--json").out()).path("findings")).hasSize(2);
  }

  @Test
  void checkReadsEveryPartOfTheDeployedStackAndFindsNoDriftInAStackAsDeployed() throws Exception {
    OpsRun check = new OpsRun(env, "check");
    assertThat(check.exitCode()).as(check.out() + check.err()).isZero();
    assertThat(check.out()).contains("stack fulfil-order in us-east-1")
        .contains("the event source mapping, the function, the alarms and their topic").contains("no drift found");
    assertThat(aws.served).contains("DescribeStacks", "Lambda GetFunctionConfiguration", "Lambda ListEventSourceMappings",
        "DescribeAlarms", "ListSubscriptionsByTopic");
  }

  @Test
  void checkNamesADisabledMappingAShortenedTimeoutAMissingAlarmAndAnUnconfirmedSubscription() throws Exception {
    aws.mappingState = "Disabled";
    aws.functionTimeoutSeconds = 30;
    aws.alarms.remove(AlarmNames.DLQ_NEW_MESSAGES);
    aws.subscriptions.set(0, "PendingConfirmation");

    OpsRun check = new OpsRun(env, "check");
    assertThat(check.exitCode()).as(check.out() + check.err()).isEqualTo(1);
    assertThat(check.out())
        .contains("the event source mapping a1b2c3d4-5678-90ab-cdef-11111EXAMPLE is Disabled, infra/cdk.json commits"
            + " mappingEnabled true: the next deploy sets it back")
        .contains("the function's timeout is 30 s, the budget says " + BUDGET.functionTimeout().toSeconds() + " s")
        .contains("the alarm " + AlarmNames.DLQ_NEW_MESSAGES + " is missing")
        .contains("nobody is subscribed to " + FakeControlPlane.TOPIC);
    assertThat(JSON.readTree(new OpsRun(env, "check", "--json").out()).path("findings")).hasSize(4);
  }

  /**
   * Review: a console edit of PARTNER_BASE_URL (to http://, or to another host) sends the partner's API
   * key wherever it points, and check compared only the budget's variables; and nothing noticed the
   * mapping's own event counts switched off, on which an alarm rests.
   */
  @Test
  void checkNamesAPartnerUrlThatIsNotTheStacksAndTheMappingsMetricsSwitchedOff() throws Exception {
    aws.functionPartnerBaseUrl = "http://partner.example/";
    aws.mappingMetrics.clear();

    OpsRun check = new OpsRun(env, "check");
    assertThat(check.exitCode()).as(check.out() + check.err()).isEqualTo(1);
    assertThat(check.out())
        .contains("the function's PARTNER_BASE_URL is http://partner.example/, the stack was deployed with "
            + FakeControlPlane.PARTNER_BASE_URL)
        .contains("the event source mapping a1b2c3d4-5678-90ab-cdef-11111EXAMPLE does not publish its event counts"
            + " (MetricsConfig EventCount is off)");
    assertThat(JSON.readTree(new OpsRun(env, "check", "--json").out()).path("findings")).hasSize(2);
  }

  @Test
  void dlqTakesTheReasonFromTheFunctionsLogsForAMessageTheRedrivePolicyMoved() throws Exception {
    // The redrive policy moves a message as it was sent, same id, nothing added: only the logs know why.
    String dlqUrl = queues.deadLetter().orElseThrow().url();
    String messageId = sqs.sendMessage(r -> r.queueUrl(dlqUrl).messageBody(
        "{\"order_id\":\"ORD-OPS-AWS-0001\",\"placed_at\":\"2026-11-25T08:00:00Z\"}")).messageId();
    aws.logLines.add("{\"level\":\"INFO\",\"message\":\"record received\",\"message_id\":\"" + messageId + "\"}");
    aws.logLines.add("{\"level\":\"WARN\",\"message\":\"partner unavailable: partner answered 503 to a lookup\","
        + "\"message_id\":\"" + messageId + "\",\"order_id\":\"ORD-OPS-AWS-0001\"}");
    aws.logLines.add("{\"level\":\"INFO\",\"message\":\"record returned to the queue\",\"message_id\":\"" + messageId + "\"}");

    var letter = JSON.readTree(new OpsRun(env, "dlq", "--json").out()).path("dead_letters").get(0);
    assertThat(letter.path("message_id").asText()).isEqualTo(messageId);
    assertThat(letter.path("failure_class").asText()).isEqualTo("receives_exhausted");
    assertThat(letter.path("reason").asText()).isEqualTo("partner unavailable: partner answered 503 to a lookup");
    assertThat(letter.path("action").asText()).isEqualTo("redrive");
    assertThat(aws.served).contains("Logs FilterLogEvents");
  }

  /**
   * A message whose verdict is redrive is a good order that may yet be booked: drop leaves it in the DLQ
   * unless on-call overrides with a reason, which the archive then keeps beside the verdict.
   */
  @Test
  void dropRefusesAMessageDlqWouldRedriveUnlessForcedWithAReasonWhichTheArchiveKeeps(@TempDir Path archive) throws Exception {
    String dlqUrl = queues.deadLetter().orElseThrow().url();
    // As the redrive policy leaves it after five failed receives: no label, so its verdict is redrive.
    String messageId = sqs.sendMessage(r -> r.queueUrl(dlqUrl).messageBody(
        "{\"order_id\":\"ORD-OPS-AWS-GOOD-" + UUID.randomUUID().toString().substring(0, 8) + "\"}")).messageId();
    try {
      OpsRun refused = new OpsRun(env, "drop", messageId, "--archive", archive.toString());
      assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(1);
      assertThat(refused.out()).contains(messageId + ": NOT dropped, left in the DLQ: dlq's verdict is redrive");
      assertThat(archive.resolve(messageId + ".json")).doesNotExist();

      OpsRun noReason = new OpsRun(env, "drop", messageId, "--force");
      assertThat(noReason.exitCode()).isEqualTo(2);
      assertThat(noReason.err()).contains("--force and --reason go together");

      OpsRun forced = new OpsRun(env, "drop", messageId, "--force", "--reason", "the customer cancelled the order",
          "--archive", archive.toString());
      assertThat(forced.exitCode()).as(forced.out() + forced.err()).isZero();
      var archived = JSON.readTree(archive.resolve(messageId + ".json").toFile());
      assertThat(archived.path("dropped_against_verdict_because").asText()).isEqualTo("the customer cancelled the order");
      assertThat(archived.path("verdict").path("action").asText()).isEqualTo("redrive");
    } finally {
      sqs.purgeQueue(r -> r.queueUrl(dlqUrl));
    }
  }

  @Test
  void orderAndDlqShowTheTraceIdTheOrdersMessageCameIn() throws Exception {
    String dlqUrl = queues.deadLetter().orElseThrow().url();
    String orderId = "ORD-OPS-AWS-TRACED-" + UUID.randomUUID().toString().substring(0, 8);
    String body = "{\"order_id\":\"" + orderId + "\",\"service\":\"teleport\"}";
    // As the function leaves them: one it sent with its traceparent, one the redrive policy moved with its X-Ray header.
    String traced = sqs.sendMessage(r -> r.queueUrl(dlqUrl).messageBody(body).messageAttributes(Map.of("traceparent",
        MessageAttributeValue.builder().dataType("String").stringValue("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
            .build()))).messageId();
    String xray = sqs.sendMessage(r -> r.queueUrl(dlqUrl).messageBody(body).messageSystemAttributes(Map.of(
        MessageSystemAttributeNameForSends.AWS_TRACE_HEADER, MessageSystemAttributeValue.builder().dataType("String")
            .stringValue("Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1").build()))).messageId();
    aws.logLines.add("{\"level\":\"ERROR\",\"message\":\"permanent failure, returning the message for the DLQ\","
        + "\"message_id\":\"" + traced + "\",\"order_id\":\"" + orderId + "\",\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\"}");
    try {
      Map<String, com.fasterxml.jackson.databind.JsonNode> letters = new HashMap<>();
      JSON.readTree(new OpsRun(env, "dlq", "--json").out()).path("dead_letters")
          .forEach(letter -> letters.put(letter.path("message_id").asText(), letter));
      assertThat(letters.get(traced).path("trace_id").asText()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
      assertThat(letters.get(xray).path("trace_id").asText()).isEqualTo("5759e988bd862e3fe1be46a994272793");
      assertThat(new OpsRun(env, "dlq").out()).contains("    trace    4bf92f3577b34da6a3ce929d0e0e4736");

      assertThat(JSON.readTree(new OpsRun(env, "order", orderId, "--json").out()).path("trace_ids"))
          .extracting(com.fasterxml.jackson.databind.JsonNode::asText).containsExactly("4bf92f3577b34da6a3ce929d0e0e4736");
      assertThat(new OpsRun(env, "order", orderId).out())
          .contains("  trace    4bf92f3577b34da6a3ce929d0e0e4736 (the producer's trace, from its log lines)");
    } finally {
      sqs.purgeQueue(r -> r.queueUrl(dlqUrl));
    }
  }

  /** The function's line for a failed try says when its message returns; `order` tells on-call, until it is booked. */
  @Test
  void orderSaysWhenAnUnbookedOrdersNextTryIsDue() throws Exception {
    String orderId = "ORD-OPS-AWS-NEXT-" + UUID.randomUUID().toString().substring(0, 8);
    Instant nextTry = Instant.now().plus(Duration.ofMinutes(20)).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    aws.logLines.add("{\"level\":\"WARN\",\"message\":\"transient failure, the message returns after a backoff: partner"
        + " answered 503 to a lookup\",\"order_id\":\"" + orderId + "\",\"receive_count\":\"3\"}");
    aws.logLines.add("{\"level\":\"INFO\",\"message\":\"the message returns in 1200 s\",\"order_id\":\"" + orderId
        + "\",\"" + OrderLogFields.NEXT_TRY_AT + "\":\"" + nextTry + "\"}");

    OpsRun told = new OpsRun(env, "order", orderId, "--json");
    var story = JSON.readTree(told.out());
    assertThat(story.path("next_try_at").asText()).isEqualTo(nextTry.toString());
    // This control plane has no partner to ask: the verdict says so, and what the record and logs say.
    assertThat(told.exitCode()).isEqualTo(1);
    assertThat(story.path("verdict").asText()).startsWith("not known: the partner could not be asked")
        .contains("The record says: not booked yet; its message returns for the next try about " + nextTry + ".");
    assertThat(new OpsRun(env, "order", orderId).out()).contains("  next try about " + nextTry + " (in ");
  }

  @Test
  void capacitySetsTheLastHoursArrivalsAgainstWhatTheDeployedMappingBooksAtTheMeasuredDurations() throws Exception {
    // Twelve five-minute periods: 30 orders each (360 an hour), invocations of 48 s on average, the longest 150 s.
    lastHour(30, 48_000, 150_000);

    OpsRun capacity = new OpsRun(env, "capacity");
    assertThat(capacity.exitCode()).as(capacity.out() + capacity.err()).isZero();
    assertThat(capacity.out().lines()).hasSize(1);
    assertThat(capacity.out()).startsWith("In the last hour 360 orders arrived (48% of capacity) and invocations took 48 s"
            + " on average (longest 150 s), at which 10 at once x 1 book 750 an hour;"
            + " at the partner's worst case (285 s an order) the stack books 126 an hour;"
            + " 0 orders waiting now (the backlog alarm fires above 188): no backlog.");
    assertThat(aws.served).contains("GetMetricData", "Lambda ListEventSourceMappings");
  }

  @Test
  void capacitySaysWhenOrdersArriveFasterThanTheDeployedMappingBooksThemOnASlowPartnerDay() throws Exception {
    // 100 orders each five minutes (1,200 an hour) on a partner day of 120 s invocations: 300 an hour at 10 at once.
    lastHour(100, 120_000, 280_000);
    aws.mappingMaximumConcurrency = 10;

    OpsRun capacity = new OpsRun(env, "capacity", "--json");
    assertThat(capacity.exitCode()).as(capacity.out() + capacity.err()).isEqualTo(1);
    var report = JSON.readTree(capacity.out());
    assertThat(report.path("arrivals_last_hour").asLong()).isEqualTo(1200);
    assertThat(report.path("mean_duration_seconds").asDouble()).isEqualTo(120.0);
    assertThat(report.path("capacity_orders_per_hour_at_measured_duration").asLong()).isEqualTo(300);
    assertThat(report.path("capacity_orders_per_hour_worst_case").asLong()).isEqualTo(126);
    assertThat(report.path("arrivals_outpace_capacity").asBoolean()).isTrue();
    assertThat(new OpsRun(env, "capacity").out()).contains("(400% of capacity)")
        .contains("orders arrive faster than they are booked: runbook section 16");
  }

  @Test
  void capacityReadsTheMappingsConcurrencyAsDeployedNotTheDefault() throws Exception {
    lastHour(30, 48_000, 60_000);
    aws.mappingMaximumConcurrency = 20;

    var report = JSON.readTree(new OpsRun(env, "capacity", "--json").out());
    assertThat(report.path("max_concurrency").asInt()).isEqualTo(20);
    assertThat(report.path("capacity_orders_per_hour_at_measured_duration").asLong()).isEqualTo(1500);
    assertThat(report.path("capacity_orders_per_hour_worst_case").asLong()).isEqualTo(252);
  }

  /** CloudWatch's last hour as the stack's queue and function report it, in twelve five-minute datapoints. */
  private static void lastHour(int ordersEachPeriod, double meanDurationMs, double longestMs) {
    String queue = "QueueName=" + queues.source().url().substring(queues.source().url().lastIndexOf('/') + 1);
    aws.metrics.put("AWS/SQS NumberOfMessagesSent Sum " + queue, java.util.Collections.nCopies(12, (double) ordersEachPeriod));
    aws.metrics.put("AWS/Lambda Invocations Sum FunctionName=fulfil-order", java.util.Collections.nCopies(12, (double) ordersEachPeriod));
    aws.metrics.put("AWS/Lambda Duration Sum FunctionName=fulfil-order",
        java.util.Collections.nCopies(12, ordersEachPeriod * meanDurationMs));
    List<Double> longest = new java.util.ArrayList<>(java.util.Collections.nCopies(12, meanDurationMs));
    longest.set(5, longestMs);
    aws.metrics.put("AWS/Lambda Duration Maximum FunctionName=fulfil-order", longest);
  }

  private static Path committedSettings() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("infra/cdk.json"))) {
        return dir.resolve("infra/cdk.json");
      }
    }
    throw new IllegalStateException("no infra/cdk.json above " + Path.of("").toAbsolutePath());
  }

  @Test
  void aStackThatIsNotThereIsSaidInOneSentence() throws Exception {
    OpsRun check = new OpsRun(env, "check", "--stack", "fulfil-order-typo");
    assertThat(check.exitCode()).isEqualTo(2);
    assertThat(check.err()).contains("the stack fulfil-order-typo in us-east-1 does not exist: deploy it");
  }
}
