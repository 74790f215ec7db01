package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.iam.IamPolicy;
import com.acme.fulfil.iam.RecordedAwsCalls;
import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueSettings;
import com.acme.fulfil.runbook.RunbookAwsCalls;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Orders;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * infra/oncall-role.template.json, on call's role, against what on call does with it: every AWS CLI call of
 * docs/runbook.md ({@link RunbookAwsCalls}) and every call {@code ./fulfil-ops} makes, recorded as each command runs
 * against a stack deployed as the CDK stack makes it ({@link RecordedAwsCalls}; queues and table on the selected
 * backend, the control plane and alarms on {@link FakeControlPlane} and {@link FakeAlarmTopic}). Each must be allowed,
 * SQS calls on the queue they name; and nothing more: every action the role grants is one of those, or one
 * CloudFormation's drift detection makes with the caller's permissions (read-only) or authorizes beside DetectStackDrift,
 * or one a move task needs beside StartMessageMoveTask; messages are received, deleted and moved on the DLQ only; "*" only where IAM cannot name a
 * resource. The deploy role, which runs {@code ./fulfil-ops drill} after each deploy, may make the drill's calls.
 */
@OnSelectedBackend
class OnCallRoleTest {
  private static final Path REPOSITORY = Path.of(System.getProperty("fulfil.repository", ".."));
  private static final Map<String, String> ACCOUNT = Map.of("AWS::Partition", "aws", "AWS::Region", FakeAlarmTopic.REGION,
      "AWS::AccountId", FakeAlarmTopic.ACCOUNT, "CdkQualifier", "hnb659fds");
  private static final IamPolicy ON_CALL = IamPolicy.in(REPOSITORY.resolve("infra/oncall-role.template.json"),
      "/Resources/OnCallRole/Properties/Policies/0/PolicyDocument/Statement", ACCOUNT);
  private static final IamPolicy DEPLOY_ROLE = IamPolicy.in(REPOSITORY.resolve("infra/deploy-role.template.json"),
      "/Resources/DeployRole/Properties/Policies/0/PolicyDocument/Statement", ACCOUNT);
  private static final String QUEUE_ARN = "arn:aws:sqs:" + FakeAlarmTopic.REGION + ":" + FakeAlarmTopic.ACCOUNT + ":";
  private static final String SOURCE = "orders-to-fulfil";
  private static final String DLQ = "orders-to-fulfil-dlq";
  /**
   * What a move task needs besides StartMessageMoveTask, as the SQS developer guide lists it for a DLQ redrive: receive,
   * delete and read the attributes of the source (the DLQ), send to the destination (the queue).
   */
  private static final Map<String, String> MOVE_TASK_NEEDS = Map.of("sqs:ReceiveMessage", DLQ, "sqs:DeleteMessage", DLQ,
      "sqs:GetQueueAttributes", DLQ, "sqs:SendMessage", SOURCE);
  /**
   * What CloudFormation authorizes beside DetectStackDrift when it detects a stack's drift, resource by resource
   * (the user guide's drift detection permissions).
   */
  private static final Set<String> DRIFT_DETECTION_NEEDS = Set.of("cloudformation:DetectStackResourceDrift");
  /** What changes or reads messages: granted on the DLQ alone. */
  private static final Set<String> MESSAGES = Set.of("sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility",
      "sqs:StartMessageMoveTask", "sqs:ListMessageMoveTasks", "sqs:CancelMessageMoveTask");
  /** The service authorization reference lists no resource type for these: only "*" grants them. */
  private static final Set<String> UNSCOPED = Set.of("cloudformation:DescribeStackDriftDetectionStatus",
      "lambda:ListEventSourceMappings", "logs:GetQueryResults", "cloudwatch:GetMetricData", "cloudwatch:DescribeAlarms");
  /** The statement of what drift detection reads, resource by resource, with the caller's permissions. */
  private static final String DRIFT_READS = "DriftDetectionReadsEachResourceAsTheCaller";

  private static FakeControlPlane controlPlane;
  private static FakeAlarmTopic alarms;
  private static OrdersQueues queues;
  private static SqsClient sqs;
  private static Map<String, String> env;
  /** What ./fulfil-ops called, each command of it run once; the drill's calls apart. */
  private static Set<RecordedAwsCalls.Call> opsCalls;
  private static Set<RecordedAwsCalls.Call> drillCalls;

  @BeforeAll
  static void runEveryCommand(AwsBackend backend, @TempDir Path archive) throws Exception {
    TimingBudget budget = TimingBudget.defaults();
    var connection = backend.connection();
    OrdersStack stack = new OrdersStack(connection.sqsClient(), connection.dynamoDbClient(), connection.secretsManagerClient());
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    sqs = connection.sqsClient();
    queues = stack.createQueues(SOURCE + "-" + suffix, new QueueSettings(budget.visibilityTimeout(), budget.sourceRetention(),
        Optional.of(new QueueSettings.Redrive(budget.maxReceiveCount(), budget.dlqRetention()))));
    String table = "fulfil-order-idempotency-" + suffix;
    stack.createIdempotencyTable(table);
    controlPlane = new FakeControlPlane(Map.of("QueueUrl", queues.source().url(), "DlqUrl", queues.deadLetter().orElseThrow().url(),
        "IdempotencyTableName", table, "PartnerApiKeySecretArn", FakeControlPlane.SECRET_ARN), budget, queues.source().arn());
    alarms = new FakeAlarmTopic();
    alarms.topicPolicy = FakeAlarmTopic.CLOUDWATCH_ALLOWED;
    env = new HashMap<>(connection.functionEnvironment());
    env.putAll(controlPlane.endpoints());
    env.put(CommittedSettings.FILE_VARIABLE, REPOSITORY.resolve("infra/cdk.json").toString());
    Map<String, String> drillEnv = new HashMap<>(env);
    drillEnv.putAll(alarms.endpoints());

    String dlqUrl = queues.deadLetter().orElseThrow().url();
    // A good order the redrive policy left (its verdict: redrive) and a poison message (drop).
    String orderId = Orders.newId("ORD-ONCALL");
    sqs.sendMessage(r -> r.queueUrl(dlqUrl).messageBody(Orders.body(orderId)));
    String poison = sqs.sendMessage(r -> r.queueUrl(dlqUrl).messageBody("{\"order_id\":\"ORD-ONCALL-POISON\",\"service\":\"teleport\"}"))
        .messageId();
    opsCalls = RecordedAwsCalls.during(() -> {
      for (List<String> command : List.of(List.of("order", orderId), List.of("dlq"), List.of("check"), List.of("capacity"),
          List.of("drop", poison, "--archive", archive.toString()), List.of("redrive", "--go", "--rate", "500"))) {
        OpsRun run = new OpsRun(env, command.toArray(String[]::new));
        assertThat(run.exitCode()).as("%s: %s%s", command, run.out(), run.err()).isLessThanOrEqualTo(1);
      }
      return null;
    });
    drillCalls = RecordedAwsCalls.during(() -> new OpsRun(drillEnv, "drill"));
  }

  @AfterAll
  static void close() {
    alarms.close();
    controlPlane.close();
  }

  @Test
  void everyCallOfTheRunbookIsAllowedOnTheQueueItNames() {
    List<RunbookAwsCalls.Call> calls = RunbookAwsCalls.inRunbook();
    assertThat(calls).as("the runbook's AWS CLI calls").hasSizeGreaterThan(20);
    assertThat(calls).filteredOn(call -> !allowed(call.action(), call.queue()))
        .as("runbook calls the on-call role does not allow").isEmpty();
  }

  @Test
  void everyCallOfFulfilOpsIsAllowedOnTheQueueItNames() {
    assertThat(opsCalls).extracting(RecordedAwsCalls.Call::action).as("what the commands called")
        .contains("sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:StartMessageMoveTask", "cloudformation:DetectStackDrift",
            "cloudwatch:GetMetricData", "logs:FilterLogEvents", "dynamodb:GetItem");
    assertThat(drillCalls).extracting(RecordedAwsCalls.Call::action).contains("cloudwatch:SetAlarmState");
    List<RecordedAwsCalls.Call> refused = new ArrayList<>();
    for (RecordedAwsCalls.Call call : union(opsCalls, drillCalls)) {
      if (!allowed(call.action(), call.queue().map(OnCallRoleTest::queueName))) {
        refused.add(call);
      }
    }
    assertThat(refused).as("./fulfil-ops calls the on-call role does not allow").isEmpty();
  }

  /** Nothing beyond what on call does, what drift detection reads as the caller, and what a move task needs. */
  @Test
  void theRoleGrantsNothingOnCallDoesNotDo() {
    Set<String> used = new TreeSet<>(MOVE_TASK_NEEDS.keySet());
    used.addAll(DRIFT_DETECTION_NEEDS);
    RunbookAwsCalls.inRunbook().forEach(call -> used.add(call.action()));
    union(opsCalls, drillCalls).forEach(call -> used.add(call.action()));
    Map<String, List<String>> unused = new LinkedHashMap<>();
    ON_CALL.statements().stream().filter(s -> !s.sid().equals(DRIFT_READS)).forEach(s -> s.actions().stream()
        .filter(action -> !used.contains(action)).forEach(action -> unused.computeIfAbsent(s.sid(), k -> new ArrayList<>()).add(action)));
    assertThat(unused).as("granted, and nothing on call does needs it").isEmpty();
    assertThat(ON_CALL.actions()).as("no wildcard action").noneMatch(action -> action.contains("*"));
    IamPolicy.Statement driftReads = ON_CALL.statements().stream().filter(s -> s.sid().equals(DRIFT_READS)).findFirst().orElseThrow();
    assertThat(driftReads.actions()).as("drift detection only reads").allMatch(action -> action.matches("\\w+:(Describe|Get|List)\\w+"));
    assertThat(driftReads.resources()).doesNotContain("*");
  }

  @Test
  void messagesAreReceivedDeletedAndMovedOnTheDlqOnly() {
    assertThat(ON_CALL.statements()).filteredOn(s -> s.actions().stream().anyMatch(MESSAGES::contains))
        .isNotEmpty().allSatisfy(s -> assertThat(s.resources()).containsExactly(QUEUE_ARN + DLQ));
    for (String action : MESSAGES) {
      assertThat(ON_CALL.allows(action, QUEUE_ARN + SOURCE)).as(action + " on " + SOURCE).isFalse();
    }
    MOVE_TASK_NEEDS.forEach((action, queue) -> assertThat(ON_CALL.allows(action, QUEUE_ARN + queue))
        .as("a move task needs %s on %s", action, queue).isTrue());
    assertThat(ON_CALL.statements()).filteredOn(s -> s.actions().contains("sqs:SendMessage"))
        .allSatisfy(s -> assertThat(s.resources()).containsExactly(QUEUE_ARN + SOURCE));
    assertThat(ON_CALL.actions()).noneMatch(action -> action.startsWith("iam:") && !action.matches("iam:(Get|List)\\w+"));
  }

  @Test
  void everyResourceIsNamedSaveWhereIamCannotNameOne() {
    assertThat(ON_CALL.statements()).filteredOn(s -> s.resources().contains("*"))
        .allSatisfy(s -> assertThat(s.actions()).isSubsetOf(UNSCOPED));
  }

  /** The deploy job runs the drill with the deploy role: every call of it is allowed there, by the statements for it. */
  @Test
  void theDeployRoleMayRunTheDrill() {
    assertThat(drillCalls).extracting(RecordedAwsCalls.Call::action).filteredOn(action -> !DEPLOY_ROLE.allowsAnywhere(action))
        .as("drill calls the deploy role does not allow").isEmpty();
  }

  private static boolean allowed(String action, Optional<String> queue) {
    return queue.map(name -> ON_CALL.allows(action, QUEUE_ARN + name)).orElseGet(() -> ON_CALL.allowsAnywhere(action));
  }

  /** The stack's name of the queue a URL or ARN names (the test's queues carry a suffix). */
  private static String queueName(String urlOrArn) {
    var dlq = queues.deadLetter().orElseThrow();
    if (urlOrArn.equals(dlq.url()) || urlOrArn.equals(dlq.arn())) {
      return DLQ;
    }
    assertThat(urlOrArn).as("a queue of the stack's").isIn(queues.source().url(), queues.source().arn());
    return SOURCE;
  }

  private static Set<RecordedAwsCalls.Call> union(Set<RecordedAwsCalls.Call> a, Set<RecordedAwsCalls.Call> b) {
    Set<RecordedAwsCalls.Call> all = new java.util.HashSet<>(a);
    all.addAll(b);
    return all;
  }
}
