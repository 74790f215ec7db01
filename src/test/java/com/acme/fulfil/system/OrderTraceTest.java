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
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

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
    // Once per try: a loaded machine can leave a cold first try too little of its 2 s to start a booking.
    assertThat(FunctionLogLines.metricSum("TraceContextMalformed") - malformedBefore)
        .isEqualTo(fulfil.invocations().receives(messageId));
    List<JsonNode> lines = FunctionLogLines.where("message_id", messageId);
    assertThat(lines).isNotEmpty().allSatisfy(line -> assertThat(line.has("trace_id")).as(line.toString()).isFalse());
    assertThat(lines).anySatisfy(line -> assertThat(line.path("message").asText())
        .isEqualTo("the message's traceparent is not a valid trace context; the order goes ahead untraced"));
  }

  private static MessageAttributeValue text(String value) {
    return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
  }
}
