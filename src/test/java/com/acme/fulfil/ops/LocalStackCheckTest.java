package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.oncall.OnCallVariables;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.scenario.RunbookEnvironment;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.PackagedArtifact;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * {@code check} and {@code capacity} on the local stack as {@code ./run-local --serve} creates it, with the variables
 * it prints: a fresh one has no drift, a visibility timeout set by hand is found, and capacity models its mapping. Its queues come from the budget the
 * local run plays, whose floors for real work raise the function timeout and with it the visibility timeout
 * (90 s at 1/30, not the 60 s of the defaults scaled), so check must take that budget from --serve.
 */
@OnSelectedBackend
class LocalStackCheckTest {
  /** What --serve runs with its default options (LocalRun): the defaults at the local run's time scale. */
  private static final Deployment SERVED =
      Deployment.fulfilOrder(TimingBudget.defaults(), TimeScale.INCIDENT_REPLAY, 10, PackagedArtifact.path());
  private static final ObjectMapper JSON = new ObjectMapper();

  private static OrdersQueues queues;
  private static SqsClient sqs;
  private static Map<String, String> env;

  @BeforeAll
  static void serve(AwsBackend backend) {
    var connection = backend.connection();
    sqs = connection.sqsClient();
    OrdersStack stack = new OrdersStack(sqs, connection.dynamoDbClient(), connection.secretsManagerClient());
    // Under names of its own: other classes deploy on the same backend. check runs no function and calls no partner.
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    queues = stack.createQueues(SERVED.queueName() + "-" + suffix, SERVED.queue());
    String table = "served-" + suffix + "-fulfil-order-idempotency";
    stack.createIdempotencyTable(table);
    env = new RunbookEnvironment(connection, queues.source(), queues.deadLetter().orElseThrow(), table,
        "served-" + suffix + "/partner-api-key", URI.create("http://127.0.0.1:9"), "served-" + suffix + "-fulfil-order",
        SERVED.budget().orElseThrow(), SERVED.mapping().maxConcurrency()).variables();
  }

  @Test
  void aFreshLocalStackHasNoDriftAndCheckSaysWhatItCannotCheckThere() throws Exception {
    Duration visibility = SERVED.queue().visibilityTimeout();
    assertThat(visibility).as("the local run's floors").isNotEqualTo(TimingBudget.defaults().scaledDown(30).visibilityTimeout());

    OpsRun check = new OpsRun(env, "check");
    assertThat(check.exitCode()).as(check.out() + check.err()).isZero();
    assertThat(check.out()).contains("checked the queue's visibility timeout and redrive policy of the local stack")
        .contains("against the timing budget ./run-local --serve created it from (visibility " + visibility.toSeconds() + " s")
        .contains("not checked on the local stack, which has no CloudFormation to compare with a template: the queues'"
            + " retention, the table, the function and its mapping")
        .contains("no drift found");
    assertThat(JSON.readTree(new OpsRun(env, "check", "--json").out()).path("findings")).isEmpty();
  }

  @Test
  void aVisibilityTimeoutSetByHandIsFound() throws Exception {
    long created = SERVED.queue().visibilityTimeout().toSeconds();
    long byHand = TimingBudget.defaults().scaledDown(30).visibilityTimeout().toSeconds();
    setVisibilityTimeout(byHand);
    try {
      OpsRun check = new OpsRun(env, "check");
      assertThat(check.exitCode()).as(check.out() + check.err()).isEqualTo(1);
      assertThat(check.out()).contains("orders-to-fulfil's visibility timeout is " + byHand + " s, ./run-local --serve"
          + " created it with " + created + " s: a try that outlives it is handed to a second invocation");
      assertThat(JSON.readTree(new OpsRun(env, "check", "--json").out()).path("findings")).hasSize(1);
    } finally {
      setVisibilityTimeout(created);
    }
  }

  /** capacity models the mapping --serve runs, as its export lines say, never a concurrency of its own. */
  @Test
  void capacityModelsTheMappingServeSaysItRuns() throws Exception {
    Map<String, String> sevenAtOnce = new HashMap<>(env);
    sevenAtOnce.put(OnCallVariables.MAX_CONCURRENCY, "7");
    OpsRun seven = new OpsRun(sevenAtOnce, "capacity", "--json");
    var report = JSON.readTree(seven.out());
    assertThat(report.path("max_concurrency").asInt()).as(seven.out() + seven.err()).isEqualTo(7);
    assertThat(report.path("arrivals_last_hour").isNull()).as("no CloudWatch, no last hour").isTrue();
    assertThat(new OpsRun(env, "capacity").out()).contains("at maxConcurrency " + SERVED.mapping().maxConcurrency() + " it");

    Map<String, String> unsaid = new HashMap<>(env);
    unsaid.remove(OnCallVariables.MAX_CONCURRENCY);
    OpsRun refused = new OpsRun(unsaid, "capacity");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.err()).contains(OnCallVariables.MAX_CONCURRENCY + " is not set");
  }

  private static void setVisibilityTimeout(long seconds) {
    sqs.setQueueAttributes(r -> r.queueUrl(queues.source().url())
        .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, Long.toString(seconds))));
  }
}
