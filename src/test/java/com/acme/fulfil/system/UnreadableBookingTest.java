package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.records.OrderRecordLayout;
import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.FunctionLogLines;
import com.acme.fulfil.system.harness.IdempotencyRecords;
import com.acme.fulfil.system.harness.Orders;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The partner's lookup lists a booking of the order that cannot be read: its {@code shipment_id} a
 * number, null, blank or missing. The order has a booking, so the try must send no booking request;
 * it cannot record one either, so it fails as a transient failure whose reason on-call finds on the
 * order's record ({@code ./fulfil-ops order}) and in a log line with the order id.
 */
@OnSelectedBackend
class UnreadableBookingTest {

  @AutoClose
  private static FulfilOrderUnderTest fulfil;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "unreadable-booking").start();
  }

  @Test
  void aListedBookingThatCannotBeReadIsNeverBookedAgainAndItsReasonIsOnTheRecord() {
    Map<String, String> defectByOrder = new LinkedHashMap<>();
    defectByOrder.put(Orders.newId("ORD-NUMBER-ID"), "\"shipment_id\":42");
    defectByOrder.put(Orders.newId("ORD-NULL-ID"), "\"shipment_id\":null");
    defectByOrder.put(Orders.newId("ORD-BLANK-ID"), "\"shipment_id\":\" \"");
    defectByOrder.put(Orders.newId("ORD-NO-ID"), "\"courier\":\"DPD\"");
    // Every lookup lists all the entries: the order's own, and the others', no booking of this one.
    List<String> entries = new java.util.ArrayList<>(defectByOrder.entrySet().stream()
        .map(order -> "{" + order.getValue() + ",\"order_id\":\"" + order.getKey() + "\"}").toList());
    // A partner that echoes the order id upper-cased: the booking is this order's, only not in its own case.
    String echoedInCapitals = Orders.newId("ord-echoed");
    defectByOrder.put(echoedInCapitals, "order_id is this order's in another case");
    entries.add("{\"shipment_id\":\"SHP-ECHOED\",\"order_id\":\"" + echoedInCapitals.toUpperCase(java.util.Locale.ROOT) + "\"}");
    fulfil.partner().script().clear();
    fulfil.partner().script().nextLookups(Integer.MAX_VALUE, new Reaction.Listing(entries, false));

    defectByOrder.keySet().forEach(orderId -> fulfil.send(Orders.body(orderId)));
    // A cold function's first lookups can outlast the quick budget's lookup timeout and retry: a few
    // retries each, well inside the receives before the DLQ. Each failed try's story is caught as it
    // stands, since the order's next try (seconds later) claims the record afresh.
    Duration tries = fulfil.queues().settings().visibilityTimeout().multipliedBy(4);
    Map<String, IdempotencyRecords.Record> unreadable = new ConcurrentHashMap<>();
    Await.until(tries, () -> {
      defectByOrder.keySet().forEach(id -> fulfil.record(id)
          .filter(record -> record.lastOutcome().filter(OrderRecordLayout.BOOKING_UNREADABLE::equals).isPresent())
          .ifPresent(record -> unreadable.putIfAbsent(id, record)));
      return defectByOrder.keySet().stream().allMatch(id -> bookingRequestsFor(id) > 0 || unreadable.containsKey(id));
    });

    SoftAssertions softly = new SoftAssertions();
    defectByOrder.keySet().forEach(orderId -> {
      softly.assertThat(bookingRequestsFor(orderId)).as(orderId + ": booking requests").isZero();
      softly.assertThat(Optional.ofNullable(unreadable.get(orderId))).as(orderId + ": the record's story").hasValueSatisfying(record -> {
        assertThat(record.lastOutcome()).contains(OrderRecordLayout.BOOKING_UNREADABLE);
        assertThat(record.lastReason()).hasValueSatisfying(reason -> assertThat(reason).contains("cannot be read"));
      });
      List<JsonNode> lines = FunctionLogLines.where("order_id", orderId);
      softly.assertThat(lines).as(orderId + ": a log line on-call can find by the order id")
          .anySatisfy(line -> assertThat(line.path("message").asText()).contains("cannot be read"));
      softly.assertThat(lines).as(orderId + ": a transient failure, retried after the backoff, not taken for a bug of ours")
          .anySatisfy(line -> assertThat(line.path("message").asText()).contains("returns after a backoff"))
          .noneSatisfy(line -> assertThat(line.path("level").asText()).isEqualTo("ERROR"));
      softly.assertThat(lines).as(orderId + ": no personal data in its lines")
          .noneSatisfy(line -> assertThat(line.toString()).contains("Test Customer"));
    });
    softly.assertAll();
    Figures.print("a listed booking the order cannot read: %d orders, %d booking request(s) on their first tries",
        defectByOrder.size(), defectByOrder.keySet().stream().mapToLong(UnreadableBookingTest::bookingRequestsFor).sum());
  }

  /**
   * A lookup answer that is not one unambiguous document proves nothing: {@code "shipments"} twice (the
   * booking, then an empty list: a reader keeping the last key sees none), or an entry whose order id
   * differs from this order's by a look-alike letter. Each order is tried on its own, with its own answer.
   */
  @Test
  void aLookupThatIsNotOneUnambiguousDocumentSendsNoBookingRequest() {
    String twice = Orders.newId("ORD-KEY-TWICE");
    String lookAlike = Orders.newId("ORD-LOOK-ALIKE");
    Map<String, Reaction.Fault> answerByOrder = new LinkedHashMap<>();
    answerByOrder.put(twice, new Reaction.Answer(200, "{\"shipments\":[{\"shipment_id\":\"SHP-TWICE\",\"order_id\":\"" + twice
        + "\",\"courier\":\"DPD\",\"tracking_number\":\"T\",\"label_url\":\"https://l\"}],\"shipments\":[]}"));
    // A Cyrillic capital O in place of the Latin one.
    answerByOrder.put(lookAlike, new Reaction.Listing(List.of("{\"shipment_id\":\"SHP-LOOK\",\"order_id\":\""
        + lookAlike.replaceFirst("O", "\u041e") + "\"}"), false));

    SoftAssertions softly = new SoftAssertions();
    answerByOrder.forEach((orderId, answer) -> {
      fulfil.partner().script().clear();
      fulfil.partner().script().nextLookups(Integer.MAX_VALUE, answer);
      fulfil.send(Orders.body(orderId));
      AtomicReference<IdempotencyRecords.Record> failed = new AtomicReference<>();
      Await.until(fulfil.queues().settings().visibilityTimeout().multipliedBy(4), () -> {
        fulfil.record(orderId).filter(record -> record.lastReason().isPresent()).ifPresent(failed::set);
        return bookingRequestsFor(orderId) > 0 || failed.get() != null;
      });
      softly.assertThat(bookingRequestsFor(orderId)).as(orderId + ": booking requests").isZero();
      softly.assertThat(failed.get()).as(orderId + ": the failed try's story").isNotNull();
    });
    fulfil.partner().script().clear();
    softly.assertAll();
  }

  private static long bookingRequestsFor(String orderId) {
    return fulfil.partner().requests().stream()
        .filter(request -> request.method().equals("POST") && request.orderId().equals(Optional.of(orderId)))
        .count();
  }
}
