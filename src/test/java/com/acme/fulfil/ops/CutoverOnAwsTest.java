package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code ./fulfil-ops cutover} through the SDK, in order, against the old setup as the first deploy finds it:
 * SQS, Lambda and CloudFormation answering as AWS documents them for an account with orders-to-fulfil on
 * SQS's defaults, the old function's mapping on it and no stack. SQS is a fake too: the emulators refuse
 * {@code SqsManagedSseEnabled}, which AWS takes and the stack declares. Each step's exit status is the one
 * docs/deploy.md's procedure waits for, and the queues end with exactly what the stack declares.
 */
class CutoverOnAwsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OLD_FUNCTION = "arn:aws:lambda:us-east-1:000000000000:function:fulfil-order";
  private static final int OLD_TIMEOUT_SECONDS = 300;
  /** SQS's default, which the old setup kept. */
  private static final String OLD_VISIBILITY_SECONDS = "30";
  private static final TimingBudget BUDGET = TimingBudget.defaults();

  private static OldSetupControlPlane aws;
  private static Map<String, String> env;

  @BeforeAll
  static void theOldSetup() throws IOException {
    aws = new OldSetupControlPlane();
    env = new HashMap<>(Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local",
        "AWS_ENDPOINT_URL", aws.url(), CommittedSettings.FILE_VARIABLE, committedSettings().toString()));
  }

  @AfterAll
  static void stop() {
    if (aws != null) {
      aws.server.stop(0);
    }
  }

  @Test
  void theCutoverStepByStep() throws Exception {
    OpsRun looked = new OpsRun(env, "cutover", "--json");
    assertThat(looked.exitCode()).as(looked.err()).isEqualTo(1);
    assertThat(JSON.readTree(looked.out()).path("mappings").get(0).path("state").asText()).isEqualTo("Enabled");
    assertThat(aws.calls).doesNotContain("UpdateEventSourceMapping");

    Instant beforeDisabling = Instant.now();
    OpsRun disabled = new OpsRun(env, "cutover", "--go", "--json");
    assertThat(disabled.exitCode()).as(disabled.err()).isEqualTo(1);
    assertThat(aws.calls).contains("UpdateEventSourceMapping");
    JsonNode verdict = JSON.readTree(disabled.out());
    assertThat(verdict.path("mappings").get(0).path("state").asText()).isEqualTo("Disabled");
    Duration quiet = Duration.ofSeconds(Long.parseLong(OLD_VISIBILITY_SECONDS) + OLD_TIMEOUT_SECONDS)
        .plus(BUDGET.lateBookingHold());
    assertThat(Instant.parse(verdict.path("quiet_from").asText())).isAfterOrEqualTo(beforeDisabling.plus(quiet).minusSeconds(1));

    OpsRun tooEarlyToPrepare = new OpsRun(env, "cutover", "--prepare-queues");
    assertThat(tooEarlyToPrepare.exitCode()).isEqualTo(2);
    assertThat(tooEarlyToPrepare.err()).contains("a mapping still reads orders-to-fulfil");

    // As AWS would answer once the quiet time has passed since the mapping read Disabled.
    aws.lastModified = Instant.now().minus(quiet).minusSeconds(1);
    OpsRun quietNow = new OpsRun(env, "cutover");
    assertThat(quietNow.exitCode()).as(quietNow.out()).isZero();
    assertThat(quietNow.out()).contains("aws lambda delete-event-source-mapping --uuid " + OldSetupControlPlane.UUID)
        .contains("aws lambda delete-function --function-name " + OLD_FUNCTION + "\n");

    aws.deleted = true;
    OpsRun prepared = new OpsRun(env, "cutover", "--prepare-queues", "--json");
    assertThat(prepared.exitCode()).as(prepared.err()).isZero();
    assertThat(JSON.readTree(prepared.out()).path("dlq_url").asText()).isEqualTo(OldSetupControlPlane.DLQ_URL);
    // What OrderQueues declares (OrderQueuesTest), so that the import finds the queues as the template has them.
    assertThat(aws.created).containsExactly(Map.entry("orders-to-fulfil-dlq", Map.of(
        "MessageRetentionPeriod", Long.toString(BUDGET.dlqRetention().toSeconds()),
        "SqsManagedSseEnabled", "true",
        "RedriveAllowPolicy", "{\"redrivePermission\":\"byQueue\",\"sourceQueueArns\":[\"" + OldSetupControlPlane.QUEUE_ARN
            + "\"]}")));
    assertThat(aws.attributesSet).containsExactly(Map.of(
        "VisibilityTimeout", Long.toString(BUDGET.visibilityTimeout().toSeconds()),
        "MessageRetentionPeriod", Long.toString(BUDGET.sourceRetention().toSeconds()),
        "SqsManagedSseEnabled", "true",
        "RedrivePolicy", "{\"deadLetterTargetArn\":\"" + OldSetupControlPlane.DLQ_ARN + "\",\"maxReceiveCount\":"
            + BUDGET.maxReceiveCount() + "}"));
  }

  /** After the first deploy the mapping on the queue is the stack's: cutover must never disable it. */
  @Test
  void onceTheStackExistsCutoverRefusesToRun() throws Exception {
    aws.stackExists = true;
    try {
      OpsRun run = new OpsRun(env, "cutover", "--go");
      assertThat(run.exitCode()).isEqualTo(2);
      assertThat(run.err()).contains("the stack fulfil-order exists");
          } finally {
      aws.stackExists = false;
    }
  }

  private static Path committedSettings() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("infra/cdk.json"))) {
        return dir.resolve("infra/cdk.json");
      }
    }
    throw new IllegalStateException("no infra/cdk.json above " + Path.of("").toAbsolutePath());
  }

  /**
   * Lambda's ListEventSourceMappings, UpdateEventSourceMapping and GetFunctionConfiguration (REST, JSON) for one
   * mapping of the old function on the queue, and CloudFormation's DescribeStacks (query, XML) for an account
   * with or without the stack.
   */
  private static final class OldSetupControlPlane {
    static final String UUID = "0b1d0a77-5e7e-4c1a-9f1e-0ldmapping01";
    static final String QUEUE_URL = "https://sqs.us-east-1.amazonaws.com/000000000000/orders-to-fulfil";
    static final String QUEUE_ARN = "arn:aws:sqs:us-east-1:000000000000:orders-to-fulfil";
    static final String DLQ_URL = QUEUE_URL + "-dlq";
    static final String DLQ_ARN = QUEUE_ARN + "-dlq";
    final HttpServer server;
    final String queueArn = QUEUE_ARN;
    final java.util.List<String> calls = new CopyOnWriteArrayList<>();
    /** CreateQueue's queue names and attributes, and SetQueueAttributes' attributes on orders-to-fulfil. */
    final java.util.List<Map.Entry<String, Map<String, String>>> created = new CopyOnWriteArrayList<>();
    final java.util.List<Map<String, String>> attributesSet = new CopyOnWriteArrayList<>();
    volatile String state = "Enabled";
    volatile Instant lastModified = Instant.parse("2026-01-01T00:00:00Z");
    volatile boolean deleted;
    volatile boolean stackExists;

    OldSetupControlPlane() throws IOException {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/", this::answer);
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void answer(HttpExchange exchange) throws IOException {
      try (exchange) {
        String path = exchange.getRequestURI().getPath();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String target = String.valueOf(exchange.getRequestHeaders().getFirst("X-Amz-Target"));
        if (target.startsWith("AmazonSQS.")) {
          sqs(exchange, target.substring("AmazonSQS.".length()), JSON.readTree(body));
        } else if (path.startsWith("/2015-03-31/functions/") && path.endsWith("/configuration")) {
          calls.add("GetFunctionConfiguration");
          AwsQueryWire.send(exchange, 200, "application/json", JSON.createObjectNode().put("FunctionArn", OLD_FUNCTION)
              .put("Timeout", OLD_TIMEOUT_SECONDS).toString());
        } else if (path.equals("/2015-03-31/event-source-mappings/" + UUID) && "PUT".equals(exchange.getRequestMethod())) {
          calls.add("UpdateEventSourceMapping");
          if (!JSON.readTree(body).path("Enabled").asBoolean(true)) {
            state = "Disabled";
            lastModified = Instant.now();
          }
          AwsQueryWire.send(exchange, 202, "application/json", mapping().put("State", "Disabling").toString());
        } else if (path.equals("/2015-03-31/event-source-mappings") || path.equals("/2015-03-31/event-source-mappings/")) {
          calls.add("ListEventSourceMappings");
          ObjectNode answer = JSON.createObjectNode();
          var mappings = answer.putArray("EventSourceMappings");
          String query = String.valueOf(exchange.getRequestURI().getQuery());
          if (!deleted && query.contains("EventSourceArn=" + queueArn)) {
            mappings.add(mapping());
          }
          AwsQueryWire.send(exchange, 200, "application/json", answer.toString());
        } else if (body.contains("Action=DescribeStacks")) {
          calls.add("DescribeStacks");
          if (stackExists) {
            AwsQueryWire.send(exchange, 200, "text/xml", "<DescribeStacksResponse><DescribeStacksResult><Stacks><member>"
                + "<StackName>fulfil-order</StackName><StackStatus>CREATE_COMPLETE</StackStatus>"
                + "<CreationTime>2026-01-01T00:00:00Z</CreationTime></member></Stacks></DescribeStacksResult>"
                + "</DescribeStacksResponse>");
          } else {
            AwsQueryWire.send(exchange, 400, "text/xml", "<ErrorResponse><Error><Type>Sender</Type><Code>ValidationError</Code>"
                + "<Message>Stack with id fulfil-order does not exist</Message></Error></ErrorResponse>");
          }
        } else {
          AwsQueryWire.send(exchange, 400, "application/json", "{\"message\":\"not served by this fake: " + path + "\"}");
        }
      }
    }

    /** SQS's JSON protocol, for orders-to-fulfil and the DLQ the cutover creates. */
    private void sqs(HttpExchange exchange, String action, JsonNode request) throws IOException {
      calls.add(action);
      ObjectNode answer = JSON.createObjectNode();
      switch (action) {
        case "GetQueueUrl" -> answer.put("QueueUrl", QUEUE_URL);
        case "GetQueueAttributes" -> answer.putObject("Attributes").put("VisibilityTimeout", OLD_VISIBILITY_SECONDS)
            .put("QueueArn", request.path("QueueUrl").asText().equals(DLQ_URL) ? DLQ_ARN : QUEUE_ARN);
        case "CreateQueue" -> {
          created.add(Map.entry(request.path("QueueName").asText(), JSON.convertValue(request.path("Attributes"),
              new com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() { })));
          answer.put("QueueUrl", DLQ_URL);
        }
        case "SetQueueAttributes" -> attributesSet.add(JSON.convertValue(request.path("Attributes"),
            new com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() { }));
        default -> {
          AwsQueryWire.send(exchange, 400, "application/x-amz-json-1.0", "{\"__type\":\"InvalidAction\",\"message\":\"" + action + "\"}");
          return;
        }
      }
      AwsQueryWire.send(exchange, 200, "application/x-amz-json-1.0", answer.toString());
    }

    private ObjectNode mapping() {
      return JSON.createObjectNode().put("UUID", UUID).put("EventSourceArn", queueArn)
          .put("FunctionArn", OLD_FUNCTION).put("State", state).put("BatchSize", 1)
          .put("LastModified", lastModified.getEpochSecond());
    }
  }
}
