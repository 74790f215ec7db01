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
import com.acme.fulfil.sim.PartnerMode;
import com.acme.fulfil.sim.SimulatedPartner;
import com.acme.fulfil.contract.TimingBudget;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The runbook's rehearsals ("Rehearse each page on the local stack"), typed into a shell against the
 * packaged function behind the local event source mapping, as {@code ./run-local --serve} runs it: the
 * drill {@code --serve} prints (an order sent twice is booked once, a poison message is in the DLQ after
 * its first receive, and {@code ./fulfil-ops} says so), a partner's 422 that reaches the DLQ labelled,
 * an outage switched on and off, and a key rotated by the partner. The reader waits for the function
 * between the steps; so does this test.
 */
class RunbookDrillTest {
  /** The title of the runbook's section this test runs; the command tests leave it to this one. */
  static final String REHEARSALS = "rehearse each page";
  private static final String DOUBLE_SENT_ORDER = "ORD-DRILL-0001";
  private static final String POISON_ORDER = "ORD-DRILL-0002";
  private static final String REJECTED_ORDER = "ORD-DRILL-0003";
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @Test
  void everyRehearsalCausesItsPageAndTheDrillsOrderIsBookedOnce(@TempDir Path shellDirectory) throws Exception {
    RunbookRunner.assumeAwsCli("RunbookDrillTest");
    Map<String, Integer> receives = new ConcurrentHashMap<>();
    MappingListener countReceives = new MappingListener() {
      @Override
      public void received(String requestId, List<Delivery> deliveries) {
        deliveries.forEach(delivery -> receives.merge(delivery.messageId(), 1, Integer::sum));
      }
    };
    RunbookDocument.Section rehearsals = Repository.containingThisTest().runbook().section(REHEARSALS);
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
            partner.baseUrl(), function.functionName(), deployment.budget().orElseThrow(),
            deployment.mapping().maxConcurrency()), Map.of());
        runner.heading(rehearsals.title() + ", with the function running");
        assertThat(rehearsals.codeBlocks("sh").getFirst()).as("the first rehearsal is the drill --serve prints")
            .isEqualTo(RunbookDrill.text());

        String poisonMessageId = null;
        Map<String, String> printed = new java.util.LinkedHashMap<>();
        for (String command : rehearsals.commands()) {
          String output = runner.run(command).map(RunbookShell.Result::stdout).orElse("");
          printed.put(command, output);
          if (command.contains("send-message") && command.contains(POISON_ORDER)) {
            poisonMessageId = new ObjectMapper().readTree(output).path("MessageId").asText();
            await("the poison message in the DLQ", () -> QueueDepth.of(sqs, deadLetters).total() == 1);
            await("a booking for " + DOUBLE_SENT_ORDER, () -> !partner.bookingsFor(DOUBLE_SENT_ORDER).isEmpty());
          } else if (command.contains("send-message") && command.contains(REJECTED_ORDER)) {
            await("the order the partner refuses in the DLQ", () -> QueueDepth.of(sqs, deadLetters).total() == 2);
          } else if (command.endsWith("/simulator/outage\"")) {
            assertThat(partner.mode()).as("the partner after the outage's rehearsal").isEqualTo(PartnerMode.OUTAGE);
          } else if (command.endsWith("/simulator/healthy\"")) {
            assertThat(partner.mode()).as("the partner after healthy").isEqualTo(PartnerMode.HEALTHY);
          }
        }
        System.out.println(runner.report());

        assertThat(partner.bookingsFor(DOUBLE_SENT_ORDER)).hasSize(1);
        assertThat(partner.bookingsFor(POISON_ORDER)).isEmpty();
        assertThat(partner.bookingsFor(REJECTED_ORDER)).isEmpty();
        assertThat(receives.get(poisonMessageId)).as("the poison message's receives before the DLQ").isEqualTo(1);
        assertThat(printed.get("./fulfil-ops dlq")).as("./fulfil-ops dlq after the drill's poison message")
            .contains(POISON_ORDER, "invalid_message", "drop");
        assertThat(printed.get("./fulfil-ops order " + DOUBLE_SENT_ORDER)).contains("booked once");
        assertThat(labelsInTheDlq(sqs, deadLetters)).as("the DLQ's failure classes")
            .containsExactlyInAnyOrder("invalid_message", "partner_rejected");
        // The rotation's rehearsal leaves the partner's new key where section 8 reads it from.
        assertThat(java.nio.file.Files.readString(shellDirectory.resolve("partner-key.txt")).strip())
            .as("partner-key.txt, against the key the partner now takes").isEqualTo(partner.apiKey());
      }
    }
  }

  /** The failure class on each message in the DLQ, read without hiding it. */
  private static List<String> labelsInTheDlq(SqsClient sqs, QueueRef deadLetters) {
    return sqs.receiveMessage(r -> r.queueUrl(deadLetters.url()).maxNumberOfMessages(10).visibilityTimeout(0)
            .messageAttributeNames("All"))
        .messages().stream()
        .map(message -> message.messageAttributes().get(com.acme.fulfil.contract.DeadLetterAttributes.FAILURE_CLASS))
        .map(value -> value == null ? "(none)" : value.stringValue())
        .toList();
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
