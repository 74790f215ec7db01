package com.acme.fulfil.runbook;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.records.DeadLetterAttributes;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.aws.EmbeddedAws;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueDepth;
import com.acme.fulfil.local.aws.QueueRef;
import com.acme.fulfil.local.aws.QueueSettings;
import com.acme.fulfil.local.scenario.RunbookEnvironment;
import com.acme.fulfil.sim.SimulatedPartner;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Runs docs/runbook.md, section by section, as on-call would type it ({@link RunbookRunner}): every
 * command of its {@code sh} blocks, in one shell session, against a local stack with the stack's
 * names (the queue and its DLQ with the deployed redrive, the table, the secret, a partner), and
 * checks what the key procedures did there: the DLQ drained, the message dropped archived, the
 * redriven one back in the queue, the secret rotated. Skipped, and saying so, where there is no
 * {@code aws} on the PATH.
 *
 * <p>The runbook is run in two parts, each on a stack of its own, so that two test JVMs share the work
 * (each command is a shell and mostly an AWS CLI, whose start is what the test spends its time on):
 * every section belongs to the part its number says, and section 1, which reads the names every later
 * command uses, opens both.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RunbookCommands {
  private static final Pattern NUMBERED = Pattern.compile("^(\\d+)\\. ");
  /** What the runbook's names stand for in AWS, here: the stack's queue, DLQ, table and secret. */
  private static final String ORDERS_QUEUE = "orders-to-fulfil";
  private static final String TABLE = "fulfil-order-idempotency";
  private static final String SECRET = "fulfil-order/partner-api-key";
  private static final String PARTNER_KEY = "partner-key-2026-11";
  private static final String ROTATED_PARTNER_KEY = "partner-key-2026-12";

  private static final String POISON_BODY = "{\"order_id\":\"ORD-RUNBOOK-0001\",\"service\":\"teleport\"}";
  private static final String REJECTED_ORDER_ID = "ORD-RUNBOOK-0002";
  private static final String REJECTED_BODY = "{\"order_id\":\"" + REJECTED_ORDER_ID + "\",\"placed_at\":\"2026-11-20T14:03:11Z\","
      + "\"service\":\"standard\",\"ship_to\":{\"name\":\"Test Customer\",\"line1\":\"1 Example Street\",\"line2\":null,"
      + "\"city\":\"London\",\"postcode\":\"" + SimulatedPartner.REJECTED_POSTCODE + "\",\"country\":\"GB\"},"
      + "\"parcels\":[{\"weight_grams\":1200}]}";

  private final RunbookDocument runbook = Repository.containingThisTest().runbook();
  /** The values a reader picks where the runbook says {@code NAME='<...>'}. */
  private final Map<String, String> readerChoices = new HashMap<>();

  private EmbeddedAws aws;
  private SqsClient sqs;
  private SecretsManagerClient secrets;
  private SimulatedPartner partner;
  private OrdersQueues queues;
  private Path workingDirectory;
  private RunbookRunner runner;

  @BeforeAll
  void standUpTheStack(@TempDir Path shellDirectory) {
    RunbookRunner.assumeAwsCli(getClass().getSimpleName());

    workingDirectory = shellDirectory;
    aws = EmbeddedAws.start();
    sqs = aws.connection().sqsClient();
    secrets = aws.connection().secretsManagerClient();
    partner = SimulatedPartner.start(PARTNER_KEY);
    TimingBudget budget = TimingBudget.defaults();
    try (DynamoDbClient dynamoDb = aws.connection().dynamoDbClient()) {
      OrdersStack stack = new OrdersStack(sqs, dynamoDb, secrets);
      queues = stack.createQueues(ORDERS_QUEUE, new QueueSettings(budget.visibilityTimeout(), budget.sourceRetention(),
          Optional.of(new QueueSettings.Redrive(budget.maxReceiveCount(), budget.dlqRetention()))));
      stack.createIdempotencyTable(TABLE);
      stack.putPartnerKey(SECRET, PARTNER_KEY);
    }
    runner = new RunbookRunner(workingDirectory,
        new RunbookEnvironment(aws.connection(), queues.source(), deadLetters(), TABLE, SECRET, partner.baseUrl(),
            "fulfil-order", budget, 10), // maxConcurrency as infra/cdk.json commits it
        readerChoices);
  }

  @AfterAll
  void tearDown() {
    if (runner != null) {
      System.out.println(runner.report());
    }
    if (partner != null) {
      partner.close();
    }
    if (secrets != null) {
      secrets.close();
    }
    if (sqs != null) {
      sqs.close();
    }
    if (aws != null) {
      aws.close();
    }
  }

  /** Whether this part runs the section numbered {@code number}; section 1 opens every part. */
  abstract boolean runs(int number);

  @TestFactory
  Stream<DynamicTest> everyCommandRunsAgainstTheLocalStackOrIsAcceptedByTheAwsCli() {
    Map<String, SectionScenario> scenarios = Map.of(
        "Before you start", new SectionScenario(() -> { }, this::arnsAreTheQueues),
        "The DLQ alarms:", new SectionScenario(this::twoOrdersFailIntoTheDlq, this::poisonArchivedToItsFileAndRejectedOrderMovedBack),
        "The DLQ by hand", new SectionScenario(this::twoOrdersFailIntoTheDlq, this::poisonArchivedAndDroppedRejectedOrderMovedBack),
        "Partner API key rotation", new SectionScenario(this::partnerCutsOverToANewKey, this::secretHoldsTheNewKey));
    scenarios.keySet().forEach(runbook::section);
    runbook.section(RunbookDrillTest.REHEARSALS);
    readerChoices.put("OLD_VERSION", "1");
    return runbook.sections().stream()
        .filter(section -> !section.commands().isEmpty())
        // Rehearsals need the function running: RunbookDrillTest types them, against a stack where it does.
        .filter(section -> !section.title().contains(RunbookDrillTest.REHEARSALS))
        .filter(section -> {
          int number = number(section);
          return number == 1 || runs(number);
        })
        .map(section -> DynamicTest.dynamicTest(section.title(), () -> {
          SectionScenario scenario = scenarios.entrySet().stream()
              .filter(entry -> section.title().contains(entry.getKey()))
              .map(Map.Entry::getValue)
              .findFirst()
              .orElse(new SectionScenario(() -> { }, () -> { }));
          runner.heading(section.title());
          scenario.before().run();
          section.commands().forEach(runner::run);
          scenario.after().run();
        }));
  }

  private static int number(RunbookDocument.Section section) {
    Matcher numbered = NUMBERED.matcher(section.title());
    assertThat(numbered.find()).as("a runbook section with commands is numbered: %s", section.title()).isTrue();
    return Integer.parseInt(numbered.group(1));
  }

  private void arnsAreTheQueues() {
    assertThat(runner.variable("SOURCE_QUEUE_ARN")).contains(queues.source().arn());
    assertThat(runner.variable("DLQ_ARN")).contains(deadLetters().arn());
  }

  /**
   * A poison message the function sent to the DLQ with its label, and an order the partner refuses,
   * received as often as the redrive policy allows (what five failed tries of the function do), so SQS
   * has moved it into the DLQ. The reader
   * investigates and redrives the refused order and drops the poison message.
   */
  private void twoOrdersFailIntoTheDlq() {
    // Start from a quiet queue: an earlier section may have left orders in it.
    sqs.purgeQueue(r -> r.queueUrl(queues.source().url()));
    // The poison as the function dead-letters it on its first receive: labelled, so dlq's verdict is drop.
    String poison = sqs.sendMessage(r -> r.queueUrl(deadLetters().url()).messageBody(POISON_BODY).messageAttributes(Map.of(
        DeadLetterAttributes.FAILURE_CLASS, text("invalid_message"),
        DeadLetterAttributes.FAILURE_REASON, text("invalid order message: service: must be one of standard, express"),
        DeadLetterAttributes.FAILURE_AT, text(java.time.Instant.now().toString()),
        DeadLetterAttributes.SOURCE_MESSAGE_ID, text(java.util.UUID.randomUUID().toString()),
        DeadLetterAttributes.ORDER_ID, text("ORD-RUNBOOK-0001")))).messageId();
    String rejected = sqs.sendMessage(r -> r.queueUrl(queues.source().url()).messageBody(REJECTED_BODY)).messageId();
    for (int receives = 0; receives < 20 && QueueDepth.of(sqs, deadLetters()).total() < 2; receives++) {
      sqs.receiveMessage(r -> r.queueUrl(queues.source().url()).maxNumberOfMessages(10).visibilityTimeout(0));
    }
    assertThat(QueueDepth.of(sqs, deadLetters()).visible()).as("both failed orders in the DLQ").isEqualTo(2);
    readerChoices.put("MESSAGE_ID", rejected);
    readerChoices.put("ORDER_ID", REJECTED_ORDER_ID);
    readerChoices.put("DROP_MESSAGE_ID", poison);
  }

  /**
   * The poison message is archived and gone; the refused order is back in orders-to-fulfil. ElasticMQ
   * forgets a message deleted while visible only at the queue's next receive, and a move task started
   * before that moves it all the same (AWS does not): step 5's check after the delete is such a
   * receive, so removing that check fails this too.
   */
  private void poisonArchivedAndDroppedRejectedOrderMovedBack() throws IOException, InterruptedException {
    dlqEmptyAndTheRejectedOrderBackInTheQueue();

    List<String> archive = Files.readAllLines(workingDirectory.resolve("dlq-archive.jsonl"));
    assertThat(archive).hasSize(1);
    JsonNode archived = new ObjectMapper().readTree(archive.getFirst());
    assertThat(archived.path("MessageId").asText()).isEqualTo(readerChoices.get("DROP_MESSAGE_ID"));
    assertThat(archived.path("Body").asText()).isEqualTo(POISON_BODY);
  }

  /**
   * Section 2 with {@code ./fulfil-ops}: the poison message archived whole to its own file and gone,
   * the refused order back in orders-to-fulfil.
   */
  /** Archived and dropped, then sent back as archived (step 7): the source queue holds it again, its label with it. */
  private void poisonArchivedToItsFileAndRejectedOrderMovedBack() throws IOException, InterruptedException {
    JsonNode archived = new ObjectMapper().readTree(
        workingDirectory.resolve("dlq-archive").resolve(readerChoices.get("DROP_MESSAGE_ID") + ".json").toFile());
    assertThat(archived.path("body").asText()).isEqualTo(POISON_BODY);
    List<Message> back = dlqEmptyAndTheseBackInTheQueue(2);
    assertThat(back).extracting(Message::body).as("orders-to-fulfil after the redrive and the send-back")
        .containsExactlyInAnyOrder(REJECTED_BODY, POISON_BODY);
    Message sentBack = back.stream().filter(message -> message.body().equals(POISON_BODY)).findFirst().orElseThrow();
    assertThat(sentBack.messageAttributes().get(DeadLetterAttributes.ORDER_ID).stringValue()).isEqualTo("ORD-RUNBOOK-0001");
  }

  private void dlqEmptyAndTheRejectedOrderBackInTheQueue() throws InterruptedException {
    assertThat(dlqEmptyAndTheseBackInTheQueue(1)).extracting(Message::body).as("orders-to-fulfil after the redrive")
        .containsExactly(REJECTED_BODY);
  }

  private List<Message> dlqEmptyAndTheseBackInTheQueue(int expected) throws InterruptedException {
    for (int waited = 0; waited < 50 && QueueDepth.of(sqs, queues.source()).total() < expected; waited++) {
      Thread.sleep(200);
    }
    assertThat(QueueDepth.of(sqs, deadLetters()).total()).as("messages left in the DLQ").isZero();
    return sqs.receiveMessage(r -> r.queueUrl(queues.source().url()).maxNumberOfMessages(10).visibilityTimeout(0)
        .waitTimeSeconds(1).messageAttributeNames("All")).messages();
  }

  /** The partner's side of a rotation: the new key works, and the reader has written it into partner-key.txt. */
  private void partnerCutsOverToANewKey() throws IOException {
    partner.rotateKey(ROTATED_PARTNER_KEY);
    Files.writeString(workingDirectory.resolve("partner-key.txt"), ROTATED_PARTNER_KEY + "\n");
  }

  private void secretHoldsTheNewKey() {
    assertThat(secrets.getSecretValue(r -> r.secretId(SECRET)).secretString().strip()).isEqualTo(ROTATED_PARTNER_KEY);
    assertThat(workingDirectory.resolve("partner-key.txt")).doesNotExist();
  }

  private static software.amazon.awssdk.services.sqs.model.MessageAttributeValue text(String value) {
    return software.amazon.awssdk.services.sqs.model.MessageAttributeValue.builder().dataType("String").stringValue(value).build();
  }

  private QueueRef deadLetters() {
    return queues.deadLetter().orElseThrow();
  }

  /** What a section needs in place before its commands run, and what they must have done. */
  private record SectionScenario(Step before, Step after) {}

  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }
}
