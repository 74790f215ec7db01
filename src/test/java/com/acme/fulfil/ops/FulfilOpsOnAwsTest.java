package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.acme.fulfil.contract.settings.OnCallSettings;
import com.acme.fulfil.contract.records.OrderLogFields;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.system.harness.Orders;
import com.acme.fulfil.local.aws.QueueSettings;
import com.acme.fulfil.system.backend.OnSelectedBackend;
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
 * outputs, the function's configuration and mapping from Lambda, metrics from CloudWatch, subscribers
 * from SNS, CloudFormation's drift detection and the deployed template's metadata (answered by {@link
 * FakeControlPlane} as AWS documents them), queues and table on the real (emulated) SQS and DynamoDB,
 * created as the CDK stack creates them from the default budget. {@code check} must report what drift
 * detection finds and what it cannot see, each in one sentence, and never "no drift" when it does not know.
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
    env.put(CommittedSettings.FILE_VARIABLE, deployedSettings.toString());
  }

  @BeforeEach
  void asDeployed() {
    aws.detection = "DETECTION_COMPLETE";
    aws.detectionStatusReason = null;
    aws.answersInProgress = 0;
    aws.stackDriftStatus = null;
    aws.resourceDrifts.clear();
    aws.resourceDrifts.add(new FakeControlPlane.ResourceDrift("QueuesSource1A2B3C4D", "AWS::SQS::Queue",
        queues.source().url(), "IN_SYNC", List.of()));
    aws.templateMetadata = JSON.createObjectNode().set(OnCallSettings.DEPLOYED_WITH,
        JSON.valueToTree(CommittedSettings.read(deployedSettings).values())).toString();
    aws.subscriptions.clear();
    aws.subscriptions.add(FakeControlPlane.TOPIC + ":0f6c7d1e-oncall");
    aws.handMadeMappings.clear();
    aws.metrics.clear();
    aws.mappingMaximumConcurrency = 10;
  }

  @Test
  void checkRunsDriftDetectionToItsEndAndFindsNoDriftInAStackAsDeployed() throws Exception {
    aws.answersInProgress = 1;

    OpsRun check = new OpsRun(env, "check");
    assertThat(check.exitCode()).as(check.out() + check.err()).isZero();
    assertThat(check.out()).contains("stack fulfil-order in us-east-1").contains("no drift found").doesNotContain("not checked");
    assertThat(aws.served).contains("DescribeStacks", "DetectStackDrift", "DescribeStackDriftDetectionStatus",
        "DescribeStackResourceDrifts", "GetTemplateSummary", "ListSubscriptionsByTopic");
    var json = JSON.readTree(new OpsRun(env, "check", "--json").out());
    assertThat(json.path("drift").asBoolean(true)).isFalse();
    assertThat(json.path("findings")).isEmpty();
    assertThat(json.path("not_checked")).isEmpty();
  }

  /** One finding for each resource drift detection found changed or deleted, naming it and each difference. */
  @Test
  void checkNamesEachResourceChangedOrDeletedOutsideCloudFormationWithEachDifference() throws Exception {
    aws.resourceDrifts.add(new FakeControlPlane.ResourceDrift("FulfilOrderFunction9F8E7D6C", "AWS::Lambda::Function",
        "fulfil-order", "MODIFIED", List.of(
            new FakeControlPlane.PropertyDifference("/MemorySize", "512", "1024", "NOT_EQUAL"),
            new FakeControlPlane.PropertyDifference("/Environment/Variables/FULFIL_LOG_LEVEL", "INFO", "DEBUG", "NOT_EQUAL"),
            new FakeControlPlane.PropertyDifference("/Environment/Variables/PARTNER_KEY", "", "sk-live-hand-pasted", "ADD"))));
    aws.resourceDrifts.add(new FakeControlPlane.ResourceDrift("AlarmsDlqNewMessages5E4D3C2B", "AWS::CloudWatch::Alarm",
        AlarmNames.DLQ_NEW_MESSAGES, "DELETED", List.of()));

    OpsRun check = new OpsRun(env, "check");
    assertThat(check.exitCode()).as(check.out() + check.err()).isEqualTo(1);
    assertThat(check.out()).contains("2 finding(s):")
        .contains("FulfilOrderFunction9F8E7D6C (AWS::Lambda::Function fulfil-order) was changed outside CloudFormation:"
            + " /MemorySize is 1024, the template says 512; /Environment/Variables/FULFIL_LOG_LEVEL was changed (its value"
            + " is not shown: it may be a secret); /Environment/Variables/PARTNER_KEY was added (its value is not shown: it"
            + " may be a secret); set it back as the template says, or commit the change to infra/cdk.json")
        .contains("AlarmsDlqNewMessages5E4D3C2B (AWS::CloudWatch::Alarm " + AlarmNames.DLQ_NEW_MESSAGES + ") was deleted"
            + " outside CloudFormation")
        .doesNotContain("QueuesSource1A2B3C4D").doesNotContain("sk-live-hand-pasted");
    var json = JSON.readTree(new OpsRun(env, "check", "--json").out());
    assertThat(json.toString()).doesNotContain("sk-live-hand-pasted");
    assertThat(json.path("drift").asBoolean()).isTrue();
    assertThat(json.path("findings")).hasSize(2);
  }

  /** A detection that failed, or that cannot say, is never "no drift": its drift is not known, and check says so. */
  @Test
  void checkSaysDriftIsNotKnownWhenDetectionFailsOrCannotSay() throws Exception {
    aws.detection = "DETECTION_FAILED";
    aws.detectionStatusReason = "Failed to detect drift on resource [FulfilOrderFunction9F8E7D6C]: access denied";

    OpsRun failed = new OpsRun(env, "check");
    assertThat(failed.exitCode()).as(failed.out() + failed.err()).isEqualTo(1);
    assertThat(failed.out()).contains("not checked: CloudFormation's drift detection failed for part of the stack"
            + " (Failed to detect drift on resource [FulfilOrderFunction9F8E7D6C]: access denied)")
        .contains("drift not known: 1 part(s) not checked").doesNotContain("no drift found");
    var json = JSON.readTree(new OpsRun(env, "check", "--json").out());
    assertThat(json.path("drift").isNull()).as(json.toString()).isTrue();
    assertThat(json.path("not_checked")).hasSize(1);

    aws.detection = "DETECTION_COMPLETE";
    aws.stackDriftStatus = "UNKNOWN";
    OpsRun unknown = new OpsRun(env, "check");
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.out()).contains("ended without saying whether the stack drifted (UNKNOWN)")
        .doesNotContain("no drift found");
  }

  @Test
  void checkGivesUpOnADetectionThatDoesNotEndAndSaysSo() throws Exception {
    aws.answersInProgress = Integer.MAX_VALUE;

    try (Stack stack = Stack.resolve(env, FakeControlPlane.STACK)) {
      Report report = new DriftCheck(stack, FakeControlPlane.STACK, Duration.ofSeconds(1)).check();
      assertThat(report.exitCode()).isEqualTo(1);
      assertThat(report.lines()).contains("not checked: CloudFormation's drift detection " + FakeControlPlane.DETECTION_ID
          + " was still running after 1 s: run check again in a few minutes").doesNotContain("no drift found");
    }
  }

  /**
   * What drift detection cannot see, a deploy from settings other than the committed ones, from the settings the
   * template records: a cap raised in the file and not deployed, a file without the environment's values, and a
   * stack whose template records none (deployed before check compared them).
   */
  @Test
  void checkComparesTheSettingsTheStackWasDeployedWithWithTheCommittedOnes(@TempDir Path dir) throws Exception {
    ObjectNode cdkJson = (ObjectNode) JSON.readTree(deployedSettings.toFile());
    ((ObjectNode) cdkJson.path("context")).put("maxConcurrency", 20);
    Path raised = dir.resolve("cdk.json");
    JSON.writeValue(raised.toFile(), cdkJson);
    Map<String, String> withRaisedCap = new HashMap<>(env);
    withRaisedCap.put(CommittedSettings.FILE_VARIABLE, raised.toString());

    OpsRun check = new OpsRun(withRaisedCap, "check");
    assertThat(check.exitCode()).as(check.out() + check.err()).isEqualTo(1);
    assertThat(check.out()).contains("the stack was deployed with maxConcurrency 10, infra/cdk.json commits 20: commit 10"
        + " there if it was meant, or deploy from the committed file");
    assertThat(JSON.readTree(new OpsRun(withRaisedCap, "check", "--json").out()).path("findings")).hasSize(1);

    Map<String, String> asCommitted = new HashMap<>(env);
    asCommitted.put(CommittedSettings.FILE_VARIABLE, COMMITTED_SETTINGS.toString());
    assertThat(new OpsRun(asCommitted, "check").out())
        .contains("the stack was deployed with partnerBaseUrl " + FakeControlPlane.PARTNER_BASE_URL + ", infra/cdk.json commits none")
        .contains("with partnerApiKeySecretArn " + FakeControlPlane.SECRET_ARN + ", infra/cdk.json commits none")
        .contains("with alarmEmail " + FakeControlPlane.ALARM_EMAIL + ", infra/cdk.json commits none");

    aws.templateMetadata = null;
    OpsRun unrecorded = new OpsRun(env, "check");
    assertThat(unrecorded.exitCode()).isEqualTo(1);
    assertThat(unrecorded.out()).contains("not checked: the stack's template records no settings").doesNotContain("no drift found");
  }

  /** Drift detection sees the subscription, not whether anyone confirmed it: the committed address must have. */
  @Test
  void checkNamesTheCommittedAlarmAddressUntilItHasConfirmedItsSubscription() throws Exception {
    aws.subscriptions.set(0, "PendingConfirmation");

    OpsRun check = new OpsRun(env, "check");
    assertThat(check.exitCode()).as(check.out() + check.err()).isEqualTo(1);
    assertThat(check.out()).contains(FakeControlPlane.ALARM_EMAIL + ", whom infra/cdk.json commits for the alarms, has no"
        + " confirmed subscription to " + FakeControlPlane.TOPIC);
    assertThat(JSON.readTree(new OpsRun(env, "check", "--json").out()).path("findings")).hasSize(1);
  }

  /** A mapping made by hand is no resource of the stack's, so drift detection cannot see it; it takes orders all the same. */
  @Test
  void checkNamesEveryEventSourceMappingOnTheQueueWhenThereIsMoreThanTheStacksOne() throws Exception {
    String other = "arn:aws:lambda:us-east-1:000000000000:function:orders-audit";
    aws.handMadeMappings.put("0c0ffee0-hand-made", other);

    OpsRun check = new OpsRun(env, "check");
    assertThat(check.exitCode()).as(check.out() + check.err()).isEqualTo(1);
    assertThat(check.out()).contains(queues.source().url() + " is read by 2 event source mappings, where the stack makes one (")
        .contains("0c0ffee0-hand-made to " + other).contains(FakeControlPlane.ALIAS).doesNotContain("no drift found");
    assertThat(aws.served).contains("Lambda ListEventSourceMappings");
    assertThat(JSON.readTree(new OpsRun(env, "check", "--json").out()).path("findings")).hasSize(1);
  }

  @Test
  void dlqTakesTheReasonFromTheFunctionsLogsForAMessageTheRedrivePolicyMoved() throws Exception {
    // The redrive policy moves a message as it was sent, same id, nothing added: only the logs know why.
    String dlqUrl = queues.deadLetter().orElseThrow().url();
    String messageId = sqs.sendMessage(r -> r.queueUrl(dlqUrl).messageBody(Orders.body("ORD-OPS-AWS-0001"))).messageId();
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
    // As the redrive policy leaves a valid order after its receives ran out: its verdict is redrive.
    String messageId = sqs.sendMessage(r -> r.queueUrl(dlqUrl).messageBody(
        Orders.body("ORD-OPS-AWS-GOOD-" + UUID.randomUUID().toString().substring(0, 8)))).messageId();
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
        .contains("orders arrive faster than they are booked: docs/runbook.md, \"A backlog\"");
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
