package com.acme.fulfil.handler;

import static com.acme.fulfil.handler.HandlerHarness.failedIds;
import static com.acme.fulfil.handler.HandlerHarness.newOrderId;
import static com.acme.fulfil.handler.HandlerHarness.order;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.records.TraceHeaders;
import com.acme.fulfil.trace.TraceContext;
import com.acme.fulfil.sim.PartnerRequest;
import com.acme.fulfil.sim.SimulatedPartner;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;

/**
 * An order's trace from its message to the partner, through the real handler: the partner's requests
 * for a traced order are children of the message's trace, and an untraced or badly traced order is
 * booked all the same, its requests carrying no trace. Judged by what the partner received.
 */
class TracedOrderTest {
  private static final String PRODUCER_TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  /** Lambda's documented example of the header X-Ray propagation leaves on an SQS message. */
  private static final String XRAY_HEADER = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";

  @AutoClose
  private static HandlerHarness harness;
  private static SimulatedPartner partner;

  @BeforeAll
  static void start() {
    harness = new HandlerHarness();
    partner = harness.partner;
  }

  @Test
  void aTracedOrdersLookupAndBookingAreBothChildrenOfTheMessagesTrace() {
    String orderId = newOrderId();
    send(orderId, Map.of(TraceHeaders.TRACEPARENT, text(PRODUCER_TRACE)), Map.of());
    SQSEvent event = harness.receive(1);

    assertThat(failedIds(harness.invoke(event))).isEmpty();

    assertThat(partner.bookingsFor(orderId)).hasSize(1);
    List<PartnerRequest> requests = requestsFor(orderId);
    assertThat(requests).extracting(PartnerRequest::method).containsExactly("GET", "POST");
    TraceContext producer = TraceContext.fromTraceparent(PRODUCER_TRACE).orElseThrow();
    assertThat(requests).allSatisfy(request -> {
      TraceContext child = TraceContext.fromTraceparent(request.traceparent().orElseThrow()).orElseThrow();
      assertThat(child.traceId()).isEqualTo(producer.traceId());
      assertThat(child.parentId()).isNotEqualTo(producer.parentId());
      assertThat(child.flags()).isEqualTo(producer.flags());
    });
  }

  @Test
  void anOrderTracedOnlyByXRayIsBookedInThatTrace() {
    String orderId = newOrderId();
    send(orderId, Map.of(), Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
        MessageSystemAttributeValue.builder().dataType("String").stringValue(XRAY_HEADER).build()));
    SQSEvent event = harness.receive(1);
    assertThat(event.getRecords().getFirst().getAttributes()).as("the emulated SQS keeps the X-Ray header")
        .containsEntry(MessageSystemAttributeName.AWS_TRACE_HEADER.toString(), XRAY_HEADER);

    assertThat(failedIds(harness.invoke(event))).isEmpty();

    assertThat(partner.bookingsFor(orderId)).hasSize(1);
    assertThat(requestsFor(orderId)).extracting(PartnerRequest::method).containsExactly("GET", "POST");
    assertThat(requestsFor(orderId)).allSatisfy(request ->
        assertThat(request.traceparent()).hasValueSatisfying(traceparent ->
            assertThat(traceparent).startsWith("00-5759e988bd862e3fe1be46a994272793-").endsWith("-01")));
  }

  @Test
  void anOrderTracedByAnXRayRootWithoutAParentIsBookedInThatTrace() {
    // X-Ray's documented header of a trace's first hop: a root and a sampling decision, no parent span yet.
    String rootOnly = "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1";
    String orderId = newOrderId();
    send(orderId, Map.of(), Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
        MessageSystemAttributeValue.builder().dataType("String").stringValue(rootOnly).build()));
    SQSEvent event = harness.receive(1);

    assertThat(failedIds(harness.invoke(event))).isEmpty();

    assertThat(partner.bookingsFor(orderId)).hasSize(1);
    assertThat(requestsFor(orderId)).extracting(PartnerRequest::method).containsExactly("GET", "POST");
    assertThat(requestsFor(orderId)).allSatisfy(request ->
        assertThat(request.traceparent()).as("the partner's requests join the X-Ray trace").hasValueSatisfying(traceparent ->
            assertThat(traceparent).startsWith("00-5759e988bd862e3fe1be46a994272793-").endsWith("-01")));
  }

  @Test
  void aMalformedTraceparentIsIgnoredTheOrderBookedAndItsRequestsUntraced() {
    String orderId = newOrderId();
    // An upper-case traceparent: W3C's format is lower case. The X-Ray header beside it is not a fallback.
    send(orderId, Map.of(TraceHeaders.TRACEPARENT, text(PRODUCER_TRACE.toUpperCase())),
        Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
            MessageSystemAttributeValue.builder().dataType("String").stringValue(XRAY_HEADER).build()));
    String untraced = newOrderId();
    send(untraced, Map.of(), Map.of());
    SQSEvent event = harness.receive(10);
    assertThat(event.getRecords()).hasSize(2);

    assertThat(failedIds(harness.invoke(event))).isEmpty();

    for (String id : List.of(orderId, untraced)) {
      assertThat(partner.bookingsFor(id)).as(id).hasSize(1);
      assertThat(requestsFor(id)).as(id).hasSize(2).allSatisfy(request -> assertThat(request.traceparent()).isEmpty());
    }
  }

  private static void send(String orderId, Map<String, MessageAttributeValue> attributes,
      Map<MessageSystemAttributeNameForSends, MessageSystemAttributeValue> systemAttributes) {
    harness.sqs.sendMessage(r -> r.queueUrl(harness.queues.source().url()).messageBody(order(orderId))
        .messageAttributes(attributes).messageSystemAttributes(systemAttributes));
  }

  private static List<PartnerRequest> requestsFor(String orderId) {
    return partner.requests().stream().filter(request -> request.orderId().equals(Optional.of(orderId))).toList();
  }

  private static MessageAttributeValue text(String value) {
    return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
  }
}
