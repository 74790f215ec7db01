package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.sim.PartnerRequest;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.FunctionLogLines;
import com.acme.fulfil.system.harness.Orders;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;

/**
 * An order followed from its message through the packaged function: the partner's requests for a
 * traced order are children of the message's trace, and the function's log lines for it carry its
 * trace id; a malformed trace context books the order all the same, is counted, and labels nothing.
 * Judged by the partner's ledger, the queue and the function's output as CloudWatch Logs would hold it.
 */
@OnSelectedBackend
class OrderTraceTest {
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String PRODUCER_SPAN = "00f067aa0ba902b7";

  @AutoClose
  private static FulfilOrderUnderTest fulfil;
  private static Duration settles;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "trace").start();
    settles = fulfil.queues().settings().visibilityTimeout().multipliedBy(3);
  }

  /**
   * The first booking request is booked and its answer lost, so the order takes two tries, a booking and
   * a lookup (which adopts the booking): every request is its own span in the producer's trace.
   */
  @Test
  void aTracedOrdersRequestsToThePartnerAreChildrenOfItsTraceAndItsLinesCarryTheTraceId() {
    String orderId = Orders.newId("ORD-TRACED");
    fulfil.partner().script().forOrder(orderId, 1, new Reaction.BookThenDrop());
    String messageId = fulfil.send(Orders.body(orderId), Map.of("traceparent", text("00-" + TRACE_ID + "-" + PRODUCER_SPAN + "-01")));

    assertThat(fulfil.awaitDeleted(List.of(messageId), settles)).as("booked and deleted").isTrue();

    assertThat(fulfil.partner().bookingsFor(orderId)).hasSize(1);
    List<PartnerRequest> requests = fulfil.partner().requests().stream()
        .filter(request -> request.orderId().equals(Optional.of(orderId))).toList();
    assertThat(requests).extracting(PartnerRequest::method).contains("POST", "GET");
    assertThat(requests).allSatisfy(request -> assertThat(request.traceparent()).hasValueSatisfying(traceparent ->
        assertThat(traceparent).matches("00-" + TRACE_ID + "-[0-9a-f]{16}-01").doesNotContain(PRODUCER_SPAN)));
    assertThat(requests).extracting(request -> request.traceparent().orElseThrow()).doesNotHaveDuplicates();

    Await.until(settles, () -> FunctionLogLines.where("message_id", messageId).size() >= 2);
    List<JsonNode> lines = FunctionLogLines.where("message_id", messageId);
    assertThat(lines).as("the record's lines, both tries").allSatisfy(line -> {
      assertThat(line.path("trace_id").asText()).isEqualTo(TRACE_ID);
      assertThat(line.path("order_id").asText(orderId)).isEqualTo(orderId);
    });
    Figures.print("trace: %d partner request(s) for a traced order, each a child span of trace %s; %d log line(s) carry it",
        requests.size(), TRACE_ID, lines.size());
  }

  @Test
  void aMalformedTraceparentIsCountedAndIgnoredTheOrderBookedWithNoTraceOnItsLines() {
    String orderId = Orders.newId("ORD-BADTRACE");
    double malformedBefore = FunctionLogLines.metricSum("TraceContextMalformed");
    // The W3C example with a trace id one digit short.
    String messageId = fulfil.send(Orders.body(orderId), Map.of("traceparent", text("00-" + TRACE_ID.substring(1) + "-" + PRODUCER_SPAN + "-01")));

    assertThat(fulfil.awaitDeleted(List.of(messageId), settles)).as("booked and deleted").isTrue();

    assertThat(fulfil.partner().bookingsFor(orderId)).hasSize(1);
    assertThat(fulfil.partner().requests()).filteredOn(request -> request.orderId().equals(Optional.of(orderId)))
        .isNotEmpty().allSatisfy(request -> assertThat(request.traceparent()).isEmpty());
    Await.until(settles, () -> FunctionLogLines.metricSum("TraceContextMalformed") > malformedBefore);
    // At most once per try, and a loaded machine can take two: a cold first try left too little of its
    // 2 s to start a booking, or killed at the timeout before its metrics were flushed, counts none.
    assertThat(FunctionLogLines.metricSum("TraceContextMalformed") - malformedBefore)
        .isBetween(1.0, (double) fulfil.invocations().receives(messageId));
    List<JsonNode> lines = FunctionLogLines.where("message_id", messageId);
    assertThat(lines).isNotEmpty().allSatisfy(line -> assertThat(line.has("trace_id")).as(line.toString()).isFalse());
    assertThat(lines).anySatisfy(line -> assertThat(line.path("message").asText())
        .isEqualTo("the message's traceparent is not a valid trace context; the order goes ahead untraced"));
  }

  /**
   * A message that can never be booked goes to the DLQ in the function's own send: it keeps the trace
   * it came in, its traceparent attribute and its X-Ray header, which is a system attribute the send
   * must set again.
   */
  @Test
  void aDeadLetterKeepsTheTraceItsMessageCameIn() {
    String traceparent = "00-" + TRACE_ID + "-" + PRODUCER_SPAN + "-01";
    String xray = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
    String messageId = fulfil.sqs().sendMessage(r -> r.queueUrl(fulfil.queues().source().url())
        .messageBody("{\"order_id\":\"" + Orders.newId("ORD-TRACED-POISON") + "\",\"service\":\"teleport\"}")
        .messageAttributes(Map.of("traceparent", text(traceparent)))
        .messageSystemAttributes(Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
            MessageSystemAttributeValue.builder().dataType("String").stringValue(xray).build()))).messageId();

    assertThat(fulfil.awaitDeadLettered(List.of(messageId), settles)).as("in the DLQ").isTrue();

    Message dead = fulfil.deadLetters().messages().get(messageId);
    assertThat(dead.messageAttributes().get("traceparent").stringValue()).isEqualTo(traceparent);
    assertThat(dead.attributesAsStrings()).containsEntry("AWSTraceHeader", xray);
    assertThat(fulfil.invocations().receives(messageId)).as("sent there by the function, not the redrive policy").isEqualTo(1);
  }

  private static MessageAttributeValue text(String value) {
    return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
  }
}
