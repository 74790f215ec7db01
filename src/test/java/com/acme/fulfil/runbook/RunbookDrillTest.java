package com.acme.fulfil.runbook;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.acme.fulfil.contract.oncall.RunbookSections;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.EmbeddedAws;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueDepth;
import com.acme.fulfil.local.aws.QueueRef;
import com.acme.fulfil.local.scenario.LocalStandIn;
import com.acme.fulfil.local.scenario.PageEvent;
import com.acme.fulfil.local.scenario.RunbookDrill;
import com.acme.fulfil.local.scenario.RunbookEnvironment;
import com.acme.fulfil.local.scenario.ServedStack;
import com.acme.fulfil.sim.PartnerMode;
import com.acme.fulfil.sim.SimulatedPartner;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The runbook's rehearsals ("Rehearse each page on the local stack"), typed into a shell against the stack
 * as {@code ./run-local --serve} runs it, its alarms played and its pages told as they fire and clear: the
 * drill {@code --serve} prints (an order sent twice is booked once, a poison message is in the DLQ after
 * its first receive, both DLQ alarms page, and {@code ./fulfil-ops} says so), a partner's 422 that reaches
 * the DLQ labelled, an outage that pages and whose fix clears the page, and a key rotated by the partner
 * that pages until section 8 stores the new key. The reader waits for the function and the pages between
 * the steps; so does this test.
 */
class RunbookDrillTest {
  /** The title of the runbook's section this test runs; the command tests leave it to this one. */
  static final String REHEARSALS = "rehearse each page";
  private static final String DOUBLE_SENT_ORDER = "ORD-DRILL-0001";
  private static final String POISON_ORDER = "ORD-DRILL-0002";
  private static final String REJECTED_ORDER = "ORD-DRILL-0003";
  private static final String OUTAGE_ORDER = "ORD-DRILL-0004";
  private static final String ROTATION_ORDER = "ORD-DRILL-0005";
  /** The local run's default seed: the simulated partner's latencies as {@code --serve} draws them. */
  private static final long SEED = 42;
  /**
   * Two environments, not --serve's ten: the drill sends six orders, and each environment is a JVM start and the
   * function's init, which the machine pays before the first rehearsal whether an order ever reaches it or not.
   */
  private static final int MAX_CONCURRENCY = 2;
  /**
   * The longest wait for one step: a page of a five-minute alarm comes at the end of its period, a few
   * seconds at {@code --serve}'s scale, and an OK once the bad periods have left the alarm's window.
   */
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @Test
  void everyRehearsalCausesItsPageAndItsFixClearsIt(@TempDir Path shellDirectory) throws Exception {
    RunbookRunner.assumeAwsCli("RunbookDrillTest");
    RunbookDocument runbook = Repository.containingThisTest().runbook();
    RunbookDocument.Section rehearsals = runbook.section(REHEARSALS);
    String partnerCheck = runbook.section(RunbookSections.PARTNER_OUTAGE).commands().getFirst();
    List<String> storeTheNewKey = runbook.section("Partner API key rotation").commands();
    TimeScale scale = TimeScale.INCIDENT_REPLAY;
    TimingBudget budget = TimingBudget.defaults();
    List<PageEvent> pages = new CopyOnWriteArrayList<>();
    try (EmbeddedAws aws = EmbeddedAws.start();
        SqsClient sqs = aws.connection().sqsClient();
        DynamoDbClient dynamoDb = aws.connection().dynamoDbClient();
        SecretsManagerClient secrets = aws.connection().secretsManagerClient();
        ServedStack served = new ServedStack(Deployment.fulfilOrder(budget, scale, MAX_CONCURRENCY, packagedFunction()),
            aws.connection(), new OrdersStack(sqs, dynamoDb, secrets), sqs, scale, SEED, budget, page -> {
              pages.add(page);
              page.lines(scale).forEach(System.out::println);
            })) {
      served.start();
      SimulatedPartner partner = served.partner();
      RunbookEnvironment environment = served.environment();
      QueueRef deadLetters = environment.deadLetters();
      RunbookRunner runner = new RunbookRunner(shellDirectory, environment, Map.of());
      runner.heading(rehearsals.title() + ", with the function running and its alarms played");
      assertThat(rehearsals.codeBlocks("sh").getFirst()).as("the first rehearsal is the drill --serve prints")
          .isEqualTo(RunbookDrill.text());

      String poisonMessageId = null;
      long partnerPagesBefore = 0;
      Map<String, String> printed = new LinkedHashMap<>();
      for (String command : rehearsals.commands()) {
        if (command.endsWith("/simulator/outage\"") || command.contains("/simulator/rotate-key\"")) {
          partnerPagesBefore = told(pages, AlarmNames.PARTNER_FAILING, PageEvent.State.ALARM);
        }
        String output = runner.run(command).map(RunbookShell.Result::stdout).orElse("");
        printed.put(command, output);
        if (command.contains("send-message") && command.contains(POISON_ORDER)) {
          poisonMessageId = new ObjectMapper().readTree(output).path("MessageId").asText();
          await("the poison message in the DLQ", () -> QueueDepth.of(sqs, deadLetters).total() == 1);
          await("a booking for " + DOUBLE_SENT_ORDER, () -> !partner.bookingsFor(DOUBLE_SENT_ORDER).isEmpty());
          awaitPage(pages, AlarmNames.DLQ_NEW_MESSAGES, 0);
          awaitPage(pages, AlarmNames.DLQ_NOT_EMPTY, 0);
        } else if (command.contains("send-message") && command.contains(REJECTED_ORDER)) {
          await("the order the partner refuses in the DLQ", () -> QueueDepth.of(sqs, deadLetters).total() == 2);
        } else if (command.endsWith("/simulator/outage\"")) {
          assertThat(partner.mode()).as("the partner after the outage's rehearsal").isEqualTo(PartnerMode.OUTAGE);
        } else if (command.contains("send-message") && command.contains(OUTAGE_ORDER)) {
          awaitPage(pages, AlarmNames.PARTNER_FAILING, partnerPagesBefore);
          assertThat(runner.run(partnerCheck).orElseThrow().stdout()).as("section 7's check in the outage").contains("503");
        } else if (command.endsWith("/simulator/healthy\"")) {
          assertThat(partner.mode()).as("the partner after healthy").isEqualTo(PartnerMode.HEALTHY);
          awaitFixed(pages, partner, OUTAGE_ORDER);
          assertThat(runner.run(partnerCheck).orElseThrow().stdout()).as("section 7's check once fixed").contains("200");
          assertThat(fulfilOps(runner, OUTAGE_ORDER)).contains("booked once");
        } else if (command.contains("send-message") && command.contains(ROTATION_ORDER)) {
          awaitPage(pages, AlarmNames.PARTNER_FAILING, partnerPagesBefore);
          // The fix the rehearsal sends the reader to: section 8, from storing the key the partner printed.
          storeTheNewKey.forEach(runner::run);
          awaitFixed(pages, partner, ROTATION_ORDER);
          assertThat(fulfilOps(runner, ROTATION_ORDER)).contains("booked once");
        }
      }
      System.out.println(runner.report());

      assertThat(partner.bookingsFor(DOUBLE_SENT_ORDER)).hasSize(1);
      assertThat(partner.bookingsFor(OUTAGE_ORDER)).hasSize(1);
      assertThat(partner.bookingsFor(ROTATION_ORDER)).as("a booking made with the key section 8 stored").hasSize(1);
      assertThat(partner.bookingsFor(POISON_ORDER)).isEmpty();
      assertThat(partner.bookingsFor(REJECTED_ORDER)).isEmpty();
      assertThat(served.receives(poisonMessageId)).as("the poison message's receives before the DLQ").isEqualTo(1);
      assertThat(printed.get("./fulfil-ops dlq")).as("./fulfil-ops dlq after the drill's poison message")
          .contains(POISON_ORDER, "invalid_message", "drop");
      assertThat(printed.get("./fulfil-ops order " + DOUBLE_SENT_ORDER)).contains("booked once");
      assertThat(labelsInTheDlq(sqs, deadLetters)).as("the DLQ's failure classes")
          .containsExactlyInAnyOrder("invalid_message", "partner_rejected");
      assertThat(pages).as("pages of alarms --serve says it cannot play")
          .noneMatch(page -> LocalStandIn.of(page.page().alarm()).notPlayed().isPresent());
    }
  }

  /** What the rehearsal's "Fixed" runs: the order's story, which says {@code booked once}. */
  private static String fulfilOps(RunbookRunner runner, String orderId) {
    return runner.run("./fulfil-ops order " + orderId).orElseThrow().stdout();
  }

  /** Waits for a page of the alarm beyond the {@code before} it had, as --serve prints each. */
  private static void awaitPage(List<PageEvent> pages, String alarm, long before) throws InterruptedException {
    await("a page of " + alarm, () -> told(pages, alarm, PageEvent.State.ALARM) > before);
  }

  /**
   * What the rehearsal calls fixed: the order booked, and the partner page's last word OK. One order's tries
   * thin out as its backoff grows, so the page may clear before the fix: the booking comes first.
   */
  private static void awaitFixed(List<PageEvent> pages, SimulatedPartner partner, String orderId)
      throws InterruptedException {
    await("a booking for " + orderId, () -> !partner.bookingsFor(orderId).isEmpty());
    await(AlarmNames.PARTNER_FAILING + " OK", () -> pages.stream()
        .filter(page -> page.page().alarm().equals(AlarmNames.PARTNER_FAILING))
        .reduce((first, second) -> second)
        .map(last -> last.state() == PageEvent.State.OK).orElse(false));
  }

  private static long told(List<PageEvent> pages, String alarm, PageEvent.State state) {
    return pages.stream().filter(page -> page.page().alarm().equals(alarm) && page.state() == state).count();
  }

  /** The failure class on each message in the DLQ, read without hiding it. */
  private static List<String> labelsInTheDlq(SqsClient sqs, QueueRef deadLetters) {
    return sqs.receiveMessage(r -> r.queueUrl(deadLetters.url()).maxNumberOfMessages(10).visibilityTimeout(0)
            .messageAttributeNames("All"))
        .messages().stream()
        .map(message -> message.messageAttributes().get(com.acme.fulfil.contract.records.DeadLetterAttributes.FAILURE_CLASS))
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
