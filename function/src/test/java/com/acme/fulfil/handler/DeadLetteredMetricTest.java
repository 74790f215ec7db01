package com.acme.fulfil.handler;

import static com.acme.fulfil.handler.HandlerHarness.newOrderId;
import static com.acme.fulfil.handler.HandlerHarness.order;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.observability.FulfilmentMetrics;
import com.acme.fulfil.sim.Reaction;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The DLQ alarm counts {@code DeadLettered} from the function's Embedded Metric Format lines: one for a
 * message the function sends to the DLQ, one for a message whose last receive failed (the redrive policy
 * moves it), and none for a failure that still has receives left.
 */
class DeadLetteredMetricTest {
  private static final int MAX_RECEIVE_COUNT = 14;
  private static final ObjectMapper JSON = new ObjectMapper();

  @AutoClose
  private static HandlerHarness harness;
  /** The harness's function, with the DLQ to send to that the deployed function has. */
  private static FulfilOrderHandler withDeadLetterQueue;

  @BeforeAll
  static void start() {
    harness = new HandlerHarness();
    Map<String, String> environment = new HashMap<>(harness.environment);
    environment.put(FunctionEnvironment.DEAD_LETTER_QUEUE_URL, harness.queues.deadLetter().orElseThrow().url());
    environment.put(FunctionEnvironment.MAX_RECEIVE_COUNT, Integer.toString(MAX_RECEIVE_COUNT));
    withDeadLetterQueue = new FulfilOrderHandler(environment);
  }

  @BeforeEach
  void emptyQueue() {
    harness.sqs.purgeQueue(r -> r.queueUrl(harness.queues.source().url()));
  }

  @AfterEach
  void healthyPartner() {
    harness.partner.script().clear();
    harness.partner.healthy();
  }

  @Test
  void aFailedTryOnTheLastReceiveCountsOneDeadLetter() {
    harness.partner.script().nextLookups(1, Reaction.unavailable());

    assertThat(deadLetteredWhenInvoked(receivedFor(MAX_RECEIVE_COUNT, order(newOrderId())))).isEqualTo(1);
  }

  @Test
  void aFailedTryWithReceivesLeftCountsNone() {
    harness.partner.script().nextLookups(1, Reaction.unavailable());

    assertThat(deadLetteredWhenInvoked(receivedFor(MAX_RECEIVE_COUNT - 1, order(newOrderId())))).isZero();
  }

  @Test
  void aMessageTheFunctionSendsToTheDlqCountsOneDeadLetter() {
    assertThat(deadLetteredWhenInvoked(receivedFor(1, "{\"order_id\":\"" + newOrderId() + "\",\"service\":\"teleport\"}")))
        .isEqualTo(1);
    assertThat(harness.sqs.receiveMessage(r -> r.queueUrl(harness.queues.deadLetter().orElseThrow().url())
        .maxNumberOfMessages(10).waitTimeSeconds(1)).messages()).as("sent to the DLQ").hasSize(1);
  }

  @Test
  void aBookedOrderOnItsLastReceiveCountsNone() {
    assertThat(deadLetteredWhenInvoked(receivedFor(MAX_RECEIVE_COUNT, order(newOrderId())))).isZero();
  }

  /** The message as SQS hands it out on its {@code receive}-th receive. */
  private static SQSEvent receivedFor(int receive, String body) {
    SQSEvent event = harness.sendAndReceive(body);
    SQSEvent.SQSMessage message = event.getRecords().getFirst();
    Map<String, String> attributes = new HashMap<>(message.getAttributes());
    attributes.put("ApproximateReceiveCount", Integer.toString(receive));
    message.setAttributes(attributes);
    return event;
  }

  /** The sum of DeadLettered in the metric lines the invocation wrote to standard output, as CloudWatch reads them. */
  private static long deadLetteredWhenInvoked(SQSEvent event) {
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(written, true, StandardCharsets.UTF_8));
    try {
      withDeadLetterQueue.handleRequest(event, harness.context(HandlerHarness.FUNCTION_TIMEOUT));
    } finally {
      System.setOut(stdout);
    }
    return written.toString(StandardCharsets.UTF_8).lines()
        .filter(line -> line.contains("\"_aws\""))
        .mapToLong(line -> sum(read(line).path(MetricNames.DEAD_LETTERED)))
        .sum();
  }

  private static long sum(JsonNode value) {
    if (value.isArray()) {
      long total = 0;
      for (JsonNode each : value) {
        total += each.asLong();
      }
      return total;
    }
    return value.asLong();
  }

  private static JsonNode read(String line) {
    try {
      return JSON.readTree(line);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
