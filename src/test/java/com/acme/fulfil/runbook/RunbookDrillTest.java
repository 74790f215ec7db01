package com.acme.fulfil.runbook;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.aws.EmbeddedAws;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueDepth;
import com.acme.fulfil.local.aws.QueueRef;
import com.acme.fulfil.local.esm.Delivery;
import com.acme.fulfil.local.esm.MappingListener;
import com.acme.fulfil.local.scenario.LocalDeployment;
import com.acme.fulfil.local.scenario.RunbookDrill;
import com.acme.fulfil.local.scenario.RunbookEnvironment;
import com.acme.fulfil.sim.SimulatedPartner;
import com.acme.fulfil.contract.TimingBudget;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The "done", by the runbook alone: the drill {@code ./run-local --serve} prints, typed into a
 * shell against the packaged function behind the local event source mapping, puts a poison message
 * into the DLQ and redrives it, and shows the order sent twice booked once. The reader waits for the
 * function between the steps; so does this test.
 */
class RunbookDrillTest {
  private static final String DOUBLE_SENT_ORDER = "ORD-DRILL-0001";
  private static final String POISON_ORDER = "ORD-DRILL-0002";
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @Test
  void drillBooksTheTwiceSentOrderOnceAndRedrivesThePoisonMessageFromTheDlq(@TempDir Path shellDirectory) throws Exception {
    RunbookRunner.assumeAwsCli("RunbookDrillTest");
    Map<String, Integer> receives = new ConcurrentHashMap<>();
    MappingListener countReceives = new MappingListener() {
      @Override
      public void received(String requestId, List<Delivery> deliveries) {
        deliveries.forEach(delivery -> receives.merge(delivery.messageId(), 1, Integer::sum));
      }
    };
    try (EmbeddedAws aws = EmbeddedAws.start();
        SqsClient sqs = aws.connection().sqsClient();
        DynamoDbClient dynamoDb = aws.connection().dynamoDbClient();
        SecretsManagerClient secrets = aws.connection().secretsManagerClient();
        SimulatedPartner partner = SimulatedPartner.start("partner-key-drill")) {
      Deployment deployment = Deployment.fulfilOrder("drill", "orders-to-fulfil", TimingBudget.defaults(), 10,
          Duration.ofSeconds(1), packagedFunction());
      try (LocalDeployment function = new LocalDeployment(deployment, aws.connection(),
          new OrdersStack(sqs, dynamoDb, secrets), sqs, partner, countReceives, Map.of())) {
        function.start();
        QueueRef deadLetters = function.queues().deadLetter().orElseThrow();
        RunbookRunner runner = new RunbookRunner(shellDirectory, new RunbookEnvironment(aws.connection(),
            function.queues().source(), deadLetters, function.table().orElseThrow(), function.secretId(),
            partner.baseUrl(), function.functionName(), 1), Map.of());
        runner.heading("the drill of section 11, with the function running");

        String poisonMessageId = null;
        Set<String> sentByTheDrill = new HashSet<>();
        String lastOutput = "";
        for (String command : RunbookDocument.shellCommands(RunbookDrill.text())) {
          lastOutput = runner.run(command).map(RunbookShell.Result::stdout).orElse("");
          if (command.contains("send-message")) {
            sentByTheDrill.add(new ObjectMapper().readTree(lastOutput).path("MessageId").asText());
          }
          if (command.contains("send-message") && command.contains(POISON_ORDER)) {
            poisonMessageId = new ObjectMapper().readTree(lastOutput).path("MessageId").asText();
            await("the poison message in the DLQ", () -> QueueDepth.of(sqs, deadLetters).visible() == 1);
            await("a booking for " + DOUBLE_SENT_ORDER, () -> !partner.bookingsFor(DOUBLE_SENT_ORDER).isEmpty());
          }
        }
        System.out.println(runner.report());

        assertThat(lastOutput.strip()).as("what the drill's partner lookup printed").isEqualTo("1");
        assertThat(partner.bookingsFor(DOUBLE_SENT_ORDER)).hasSize(1);
        assertThat(partner.bookingsFor(POISON_ORDER)).isEmpty();
        // The function sent the poison message to the DLQ as a message of its own on its first receive;
        // the redrive brings that one back to the source, where it is received under another id.
        String poison = poisonMessageId;
        assertThat(receives.get(poison)).as("the poison message's receives before the DLQ").isEqualTo(1);
        await("the redriven poison message received again",
            () -> receives.keySet().stream().anyMatch(id -> !sentByTheDrill.contains(id)));
      }
    }
  }

  /** The deployable zip system-tests/pom.xml hands the tests; the reactor builds it before them. */
  private static Path packagedFunction() {
    String zip = System.getProperty("fulfil.artifact");
    assertThat(zip).as("the system property fulfil.artifact, which system-tests/pom.xml sets").isNotNull();
    return Path.of(zip);
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited %s for %s", PATIENCE, what).isLessThan(deadline);
      Thread.sleep(100);
    }
  }
}
