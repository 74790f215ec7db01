package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.IdempotencyRecords;
import com.acme.fulfil.system.harness.Orders;
import com.acme.fulfil.contract.TimingBudget;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The partner books and its answer never arrives: the connection drops, or the answer is still not
 * there when the function must stop waiting. The try fails as "outcome unknown", the message comes
 * back after its visibility timeout, and the next try finds the booking at the partner and adopts it.
 */
@OnSelectedBackend
class UnknownOutcomeTest {
  /** The partner's contract: up to 300 s when it is degraded or retrying on its side. */
  private static final Duration PARTNER_SLOWEST = Duration.ofSeconds(300);
  /**
   * The lookup's timeout before the 1/30 scale: 1 s after it, as the local run keeps for real work. The
   * deployed 5 s would be 0.17 s, which a loaded machine's lookups outlast, and a try whose lookup fails
   * sends no booking request, which is what these tests are about.
   */
  private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(30);

  @AutoClose
  private static FulfilOrderUnderTest fulfil;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "unknown-outcome").start();
  }

  @Test
  void bookingWhoseAnswerNeverArrivesIsAdoptedOnRedeliveryNotRepeated() {
    Map<String, Reaction> reactionByOrder = new LinkedHashMap<>();
    reactionByOrder.put(Orders.newId("ORD-DROPPED"), new Reaction.BookThenDrop());
    reactionByOrder.put(Orders.newId("ORD-UNANSWERED"), new Reaction.BookThenHang());
    Map<String, String> messageByOrder = new LinkedHashMap<>();
    reactionByOrder.forEach((orderId, reaction) -> {
      fulfil.partner().script().forOrder(orderId, 1, reaction);
      messageByOrder.put(orderId, fulfil.send(Orders.body(orderId)));
    });
    long started = System.nanoTime();

    fulfil.awaitDeleted(messageByOrder.values(), fulfil.queues().settings().visibilityTimeout().multipliedBy(3));
    Duration settled = Duration.ofNanos(System.nanoTime() - started);

    SoftAssertions softly = new SoftAssertions();
    messageByOrder.forEach((orderId, messageId) -> {
      softly.assertThat(fulfil.partner().bookingsFor(orderId)).as(orderId + ": bookings").hasSize(1);
      // At least the first: a loaded machine can time a later lookup out too before one adopts, and
      // can make Lambda kill a try at its timeout rather than let it report the failure.
      softly.assertThat(fulfil.invocations().unsuccessfulTries(messageId)).as(orderId + ": the first try failed").isPositive();
      softly.assertThat(fulfil.invocations().deleted(messageId)).as(orderId + ": deleted after the adoption").isTrue();
      softly.assertThat(fulfil.records().completed(orderId)).as(orderId + ": the booking recorded is the partner's")
          .hasValueSatisfying(record -> assertThat(record.shipmentId())
              .contains(fulfil.partner().bookingsFor(orderId).getFirst().shipmentId()));
    });
    softly.assertThat(fulfil.partner().lookupCount()).as("lookups before booking again").isGreaterThanOrEqualTo(messageByOrder.size());
    softly.assertAll();
    Figures.print("unknown outcome: %d orders booked then unanswered, %d booking(s) in all, %d lookup(s), adopted %.1f s later",
        messageByOrder.size(), fulfil.partner().bookings().size(), fulfil.partner().lookupCount(), settled.toMillis() / 1000.0);
  }

  /**
   * The contract's slowest partner, 300 s, at the local run's 1/30 scale with this project's timing:
   * the function stops waiting at its deadline (290 s), the partner books at 300 s, and in between the
   * producer's second message for the order arrives. The second try must not book again: the first
   * request may still book until the partner's 300 s are over, so a lookup in that window proves nothing.
   * The budget absorbs a 200 s worst case, so the first try's lookup, which at 1/30 has only 0.17 s of
   * slack under the default 280 s, never keeps its booking request from leaving.
   */
  @Test
  void orderArrivingAgainWhileThePartnerStillWorksOnAnUnansweredBookingBooksOnce(AwsBackend backend)
      throws InterruptedException {
    TimeScale scale = TimeScale.INCIDENT_REPLAY;
    try (FulfilOrderUnderTest slow = FulfilOrderUnderTest.on(backend, "unknown-outcome-1-30")
        .budget(TimingBudget.builder().partnerWorstCase(Duration.ofSeconds(200)).partnerLookupTimeout(LOOKUP_TIMEOUT).build()
            .scaledDown(scale.divisor()))
        .start()) {
      String orderId = Orders.newId("ORD-LATE-BOOKING");
      slow.partner().script().forOrder(orderId, 1, new Reaction.BookAfter(scale.toLocal(PARTNER_SLOWEST)));
      String first = slow.send(Orders.body(orderId));
      // The try gives up at its deadline, ~10 s local after its invocation began; the poll before it
      // and the answer after it add to that on a loaded machine.
      Await.until(scale.toLocal(PARTNER_SLOWEST).multipliedBy(2), () -> slow.invocations().unsuccessfulTries(first) > 0);

      String second = slow.send(Orders.body(orderId));
      slow.partner().awaitBookings(orderId, 2, scale.toLocal(PARTNER_SLOWEST));

      assertThat(slow.invocations().unsuccessfulTries(first)).as("the first try gave up on an unanswered booking").isEqualTo(1);
      assertThat(slow.invocations().receives(second)).as("the producer's second message was tried").isPositive();
      assertThat(slow.partner().bookingsFor(orderId)).as("couriers booked for the order").hasSize(1);
    }
  }

  /**
   * A gateway answers the booking request with a status line the HTTP client refuses (its code
   * negative, which OkHttp rejects with an exception of its own, not an IOException), while the
   * partner's backend books some seconds later. Only an answer the contract lists as "not booked" frees
   * the order: this one does not, so the producer's second message, sent as soon as the first try has
   * failed, finds the order held instead of booking it again before the late booking appears.
   */
  @Test
  void anAnswerTheHttpClientCannotReadHoldsTheOrderUntilALateBookingCanAppear(AwsBackend backend) {
    TimeScale scale = TimeScale.INCIDENT_REPLAY;
    try (FulfilOrderUnderTest held = FulfilOrderUnderTest.on(backend, "unknown-outcome-garbled")
        .budget(TimingBudget.builder().partnerWorstCase(Duration.ofSeconds(200)).partnerLookupTimeout(LOOKUP_TIMEOUT).build()
            .scaledDown(scale.divisor()))
        .start()) {
      String orderId = Orders.newId("ORD-GARBLED");
      // Half the contract's 300 s: well inside it, and long after the second message's try looks the order up.
      held.partner().script().forOrder(orderId, 1, new Reaction.LateBooking(new Reaction.Garbled(-77),
          scale.toLocal(PARTNER_SLOWEST).dividedBy(2)));
      String first = held.send(Orders.body(orderId));
      Await.until(scale.toLocal(PARTNER_SLOWEST).multipliedBy(2), () -> held.invocations().unsuccessfulTries(first) > 0);
      Optional<IdempotencyRecords.Record> firstTry = held.record(orderId);

      String second = held.send(Orders.body(orderId));
      held.awaitDeleted(List.of(first, second), held.queues().settings().visibilityTimeout().multipliedBy(3));

      SoftAssertions softly = new SoftAssertions();
      softly.assertThat(firstTry).as("the first try's story on the order's record").hasValueSatisfying(record -> {
        assertThat(record.lastOutcome()).contains("outcome_unknown");
        assertThat(record.lastReason()).hasValueSatisfying(reason -> assertThat(reason).contains("may have booked"));
      });
      softly.assertThat(held.partner().bookingsFor(orderId)).as("couriers booked for the order").hasSize(1);
      softly.assertThat(held.records().completed(orderId)).as("the late booking, adopted")
          .hasValueSatisfying(record -> assertThat(record.shipmentId())
              .contains(held.partner().bookingsFor(orderId).getFirst().shipmentId()));
      softly.assertAll();
    }
  }
}
