package com.acme.fulfil.runbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.EmbeddedAws;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueDepth;
import com.acme.fulfil.local.aws.QueueRef;
import com.acme.fulfil.local.aws.QueueSettings;
import com.acme.fulfil.local.scenario.RunbookEnvironment;
import com.acme.fulfil.sim.SimulatedPartner;
import com.acme.fulfil.timing.TimingBudget;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
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
 * Runs docs/runbook.md, section by section, as on-call would type it: every command in its {@code sh}
 * blocks goes through bash and the real AWS CLI, in one shell session, against a local stack with the
 * stack's names (the queue and its DLQ with the deployed redrive, the table, the secret, a partner).
 * A command that talks to a service only AWS has is sent to an address where nothing listens: the CLI
 * must get as far as connecting, which it does only after accepting every option and parameter, so a
 * typo fails here too. Skipped, and saying so, where there is no {@code aws} on the PATH.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunbookCommandsTest {
  /** Services the local stack has no counterpart for, and why. */
  private static final Map<String, String> AWS_ONLY_SERVICES = Map.of(
      "cloudformation", "the stack's outputs: this test stands up the same resources under the same names",
      "cloudwatch", "metrics and alarms exist only in AWS",
      "logs", "CloudWatch Logs Insights; locally the function's lines are in the --serve terminal",
      "lambda", "the local function and its event source mapping run in a JVM, not behind the Lambda API",
      "sns", "the alarm topic exists only in AWS");
  /** Operations of a local service that cannot run here, and why. */
  private static final Map<String, String> AWS_ONLY_OPERATIONS = Map.of(
      "sqs cancel-message-move-task", "the local move task has finished before there is anything to cancel");
  /** Programs the runbook runs that this test does not, and why. */
  private static final Map<String, String> NOT_RUN = Map.of(
      "./run-local", "starts the local stack, which this test has started itself",
      "./mvnw", "builds the project, which the build running this test has done",
      "npx", "the CDK CLI: synth and diff are covered by infra's tests, deploy needs an AWS account");
  private static final Set<String> LOCAL_ENDPOINTS = Set.of(
      AwsConnection.ENDPOINT_SQS, AwsConnection.ENDPOINT_DYNAMODB, AwsConnection.ENDPOINT_SECRETS_MANAGER);

  private static final Pattern AWS_CALL = Pattern.compile("(?:^|[\\s($|;&])aws\\s+([a-z0-9-]+)\\s+([a-z0-9-]+)");
  private static final Pattern READER_CHOICE = Pattern.compile("^([A-Z_][A-Z0-9_]*)='<[^'>]*>'$");
  private static final Pattern ASSIGNMENT = Pattern.compile("^([A-Z_][A-Z0-9_]*)=");
  private static final String CONNECT_REFUSED = "Could not connect to the endpoint URL";

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
  private final List<String> report = new ArrayList<>();
  private final Map<String, Integer> tally = new LinkedHashMap<>();
  /** The values a reader picks where the runbook says {@code NAME='<...>'}. */
  private final Map<String, String> readerChoices = new HashMap<>();

  private EmbeddedAws aws;
  private SqsClient sqs;
  private SecretsManagerClient secrets;
  private SimulatedPartner partner;
  private OrdersQueues queues;
  private Path workingDirectory;
  private RunbookShell shell;
  private int depthBeforeDrill;

  @BeforeAll
  void standUpTheStack(@TempDir Path shellDirectory) throws IOException {
    boolean cliPresent = new ProcessBuilder("bash", "-c", "command -v aws").start().onExit().join().exitValue() == 0;
    if (!cliPresent) {
      System.out.println("RunbookCommandsTest skipped: no aws on the PATH, so docs/runbook.md's commands were not run.");
    }
    Assumptions.assumeTrue(cliPresent, "no AWS CLI (aws) on the PATH: docs/runbook.md's commands were not run");

    workingDirectory = shellDirectory;
    aws = EmbeddedAws.start();
    sqs = aws.connection().sqsClient();
    secrets = aws.connection().secretsManagerClient();
    partner = SimulatedPartner.start(PARTNER_KEY);
    try (DynamoDbClient dynamoDb = aws.connection().dynamoDbClient()) {
      OrdersStack stack = new OrdersStack(sqs, dynamoDb, secrets);
      TimingBudget budget = TimingBudget.defaults();
      queues = stack.createQueues(ORDERS_QUEUE, new QueueSettings(budget.visibilityTimeout(), budget.sourceRetention(),
          Optional.of(new QueueSettings.Redrive(budget.maxReceiveCount(), budget.dlqRetention()))));
      stack.createIdempotencyTable(TABLE);
      stack.putPartnerKey(SECRET, PARTNER_KEY);
    }
    RunbookEnvironment variables = new RunbookEnvironment(aws.connection(), queues.source(), deadLetters(), TABLE,
        SECRET, partner.baseUrl());

    Map<String, String> environment = new HashMap<>(variables.variables());
    environment.put("PATH", System.getenv("PATH"));
    environment.put("HOME", System.getProperty("user.home"));
    environment.put("LANG", "C.UTF-8");
    Optional.ofNullable(System.getenv("PYENV_ROOT")).ifPresent(root -> environment.put("PYENV_ROOT", root));
    // Nothing of the developer's AWS setup, and no way to reach AWS: a service without a local
    // endpoint goes to an address where nothing listens.
    environment.put("AWS_CONFIG_FILE", workingDirectory.resolve("no-aws-config").toString());
    environment.put("AWS_SHARED_CREDENTIALS_FILE", workingDirectory.resolve("no-aws-credentials").toString());
    environment.put("AWS_EC2_METADATA_DISABLED", "true");
    environment.put("AWS_PAGER", "");
    environment.put("AWS_ENDPOINT_URL", "http://127.0.0.1:" + closedLoopbackPort());
    shell = new RunbookShell(workingDirectory, environment);
  }

  @AfterAll
  void tearDown() {
    if (shell != null) {
      System.out.println(String.join(System.lineSeparator(), report));
      System.out.println("docs/runbook.md: " + tally.getOrDefault("ran", 0) + " commands ran against the local stack, "
          + tally.getOrDefault("AWS only", 0) + " AWS-only commands accepted by the AWS CLI, "
          + tally.getOrDefault("reader", 0) + " values a reader picks, given by the test, "
          + tally.getOrDefault("not run", 0) + " commands not run.");
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

  @TestFactory
  Stream<DynamicTest> everyCommandRunsAgainstTheLocalStackOrIsAcceptedByTheAwsCli() {
    Map<String, SectionScenario> scenarios = Map.of(
        "Before you start", new SectionScenario(() -> { }, this::arnsAreTheQueues),
        "The DLQ alarm", new SectionScenario(this::twoOrdersFailIntoTheDlq, this::poisonArchivedAndDroppedRejectedOrderMovedBack),
        "Partner API key rotation", new SectionScenario(this::partnerCutsOverToANewKey, this::secretHoldsTheNewKey),
        "Practise on the local stack", new SectionScenario(this::noteTheQueueDepth, this::drillSentItsThreeMessages));
    scenarios.keySet().forEach(runbook::section);
    readerChoices.put("PREVIOUS_VERSION", "1");
    return runbook.sections().stream()
        .filter(section -> !section.commands().isEmpty())
        .map(section -> DynamicTest.dynamicTest(section.title(), () -> {
          SectionScenario scenario = scenarios.entrySet().stream()
              .filter(entry -> section.title().contains(entry.getKey()))
              .map(Map.Entry::getValue)
              .findFirst()
              .orElse(new SectionScenario(() -> { }, () -> { }));
          report.add("docs/runbook.md, " + section.title());
          scenario.before().run();
          section.commands().forEach(this::run);
          scenario.after().run();
        }));
  }

  private void run(String command) {
    Matcher readerChoice = READER_CHOICE.matcher(command);
    if (readerChoice.matches()) {
      String name = readerChoice.group(1);
      String value = readerChoices.get(name);
      if (value == null) {
        fail("the runbook asks the reader for " + name + " (" + command + "), and this test has no value for it");
      }
      shell.set(name, value);
      record("reader", name + "=" + value);
      return;
    }
    Optional<String> notRun = NOT_RUN.entrySet().stream()
        .filter(program -> Pattern.compile("(^|[\\s(;&|])" + Pattern.quote(program.getKey()) + "(\\s|$)").matcher(command).find())
        .map(Map.Entry::getValue)
        .findFirst();
    if (notRun.isPresent()) {
      record("not run", command + "  (" + notRun.get() + ")");
      return;
    }
    List<String> awsOnly = awsOnlyReasons(command);
    if (awsOnly.isEmpty()) {
      RunbookShell.Result result = shell.run(command);
      assertThat(result.exitCode()).as("exit status of%n  %s%nwhich printed%n%s", command, result.output()).isZero();
      record("ran", command);
      return;
    }
    assertThat(AWS_CALL.matcher(command).results().count())
        .as("a command that needs AWS may not also call the local stack: %s", command)
        .isEqualTo(awsOnly.size());
    RunbookShell.Result result = shell.probe(command, Map.of("AWS_MAX_ATTEMPTS", "1", "AWS_RETRY_MODE", "standard"),
        LOCAL_ENDPOINTS);
    List<String> complaints = result.stderr().lines().filter(line -> !line.isBlank())
        .filter(line -> !line.startsWith(CONNECT_REFUSED)).toList();
    assertThat(result.stderr()).as("the AWS CLI should accept%n  %s%nand try to connect, but printed%n%s", command,
        result.output()).contains(CONNECT_REFUSED);
    assertThat(complaints).as("the AWS CLI's complaints about%n  %s", command).isEmpty();
    Matcher assignment = ASSIGNMENT.matcher(command);
    if (assignment.find() && shell.variable(assignment.group(1)).isEmpty()) {
      // What AWS would answer; the commands after it only need some value to be well-formed.
      shell.set(assignment.group(1), "runbook-test-" + assignment.group(1).toLowerCase(Locale.ROOT));
    }
    record("AWS only", command + "  (" + String.join("; ", awsOnly) + ")");
  }

  /** Why each of the command's AWS calls can only run in AWS; empty when all of them run locally. */
  private static List<String> awsOnlyReasons(String command) {
    List<String> reasons = new ArrayList<>();
    Matcher call = AWS_CALL.matcher(command);
    while (call.find()) {
      String service = call.group(1);
      String operation = service + " " + call.group(2);
      Optional.ofNullable(AWS_ONLY_SERVICES.get(service))
          .or(() -> Optional.ofNullable(AWS_ONLY_OPERATIONS.get(operation)))
          .ifPresent(reason -> reasons.add(operation + ": " + reason));
    }
    return reasons;
  }

  private void record(String outcome, String what) {
    tally.merge(outcome, 1, Integer::sum);
    String shown = what.length() > 160 ? what.substring(0, 157) + "..." : what;
    report.add(String.format("  %-8s  %s", outcome, shown));
  }

  private void arnsAreTheQueues() {
    assertThat(shell.variable("SOURCE_QUEUE_ARN")).contains(queues.source().arn());
    assertThat(shell.variable("DLQ_ARN")).contains(deadLetters().arn());
  }

  /**
   * A poison message and an order the partner refuses, each received as often as the redrive policy
   * allows (what five failed tries of the function do), so SQS has moved both into the DLQ. The reader
   * investigates and redrives the refused order and drops the poison message.
   */
  private void twoOrdersFailIntoTheDlq() {
    String poison = sqs.sendMessage(r -> r.queueUrl(queues.source().url()).messageBody(POISON_BODY)).messageId();
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
    for (int waited = 0; waited < 50 && QueueDepth.of(sqs, queues.source()).total() == 0; waited++) {
      Thread.sleep(200);
    }
    assertThat(QueueDepth.of(sqs, deadLetters()).total()).as("messages left in the DLQ").isZero();
    List<String> bodies = sqs.receiveMessage(r -> r.queueUrl(queues.source().url()).maxNumberOfMessages(10).visibilityTimeout(0))
        .messages().stream().map(Message::body).toList();
    assertThat(bodies).as("orders-to-fulfil after the redrive").containsExactly(REJECTED_BODY);

    List<String> archive = Files.readAllLines(workingDirectory.resolve("dlq-archive.jsonl"));
    assertThat(archive).hasSize(1);
    JsonNode archived = new ObjectMapper().readTree(archive.getFirst());
    assertThat(archived.path("MessageId").asText()).isEqualTo(readerChoices.get("DROP_MESSAGE_ID"));
    assertThat(archived.path("Body").asText()).isEqualTo(POISON_BODY);
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

  private void noteTheQueueDepth() {
    depthBeforeDrill = QueueDepth.of(sqs, queues.source()).total();
  }

  private void drillSentItsThreeMessages() {
    assertThat(QueueDepth.of(sqs, queues.source()).total()).as("orders-to-fulfil after the drill's sends")
        .isEqualTo(depthBeforeDrill + 3);
  }

  private QueueRef deadLetters() {
    return queues.deadLetter().orElseThrow();
  }

  /** A loopback port nothing listens on: the AWS CLI's calls to services that exist only in AWS end there. */
  private static int closedLoopbackPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** What a section needs in place before its commands run, and what they must have done. */
  private record SectionScenario(Step before, Step after) {}

  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }
}
