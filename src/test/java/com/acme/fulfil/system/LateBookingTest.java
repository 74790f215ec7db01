package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.IdempotencyRecords;
import com.acme.fulfil.system.harness.Orders;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * The partner books long after the function stopped waiting for its answer, as late as its contract allows, at the
 * local run's 1/30 scale with this project's timing: the order stays held until that booking can have appeared, and a
 * second message for it in between books nothing.
 */
@OnSelectedBackend
class LateBookingTest {
  private static final TimeScale SCALE = TimeScale.INCIDENT_REPLAY;
  /** The partner's contract: up to 300 s when it is degraded or retrying on its side. */
  private static final Duration PARTNER_SLOWEST = Duration.ofSeconds(300);
  /**
   * The lookup's timeout before the 1/30 scale: 1 s after it, as the local run keeps for real work. The
   * deployed 5 s would be 0.17 s, which a loaded machine's lookups outlast, and a try whose lookup fails
   * sends no booking request, which is what these tests are about.
   */
  private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(30);

  /** Each test's own deployment, so that its partner's late bookings meet no other test's orders. */
  private static FulfilOrderUnderTest atTheLocalRunsScale(AwsBackend backend, String name) {
    return FulfilOrderUnderTest.on(backend, name)
        .budget(TimingBudget.builder().partnerWorstCase(Duration.ofSeconds(200)).partnerLookupTimeout(LOOKUP_TIMEOUT).build()
            .scaledDown(SCALE.divisor()))
        .start();
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
    try (FulfilOrderUnderTest slow = atTheLocalRunsScale(backend, "late-booking-unanswered")) {
      String orderId = Orders.newId("ORD-LATE-BOOKING");
      slow.partner().script().forOrder(orderId, 1, new Reaction.BookAfter(SCALE.toLocal(PARTNER_SLOWEST)));
      String first = slow.send(Orders.body(orderId));
      // The try gives up at its deadline, ~10 s local after its invocation began; the poll before it
      // and the answer after it add to that on a loaded machine.
      Await.until(SCALE.toLocal(PARTNER_SLOWEST).multipliedBy(2), () -> slow.invocations().unsuccessfulTries(first) > 0);

      String second = slow.send(Orders.body(orderId));
      slow.partner().awaitBookings(orderId, 2, SCALE.toLocal(PARTNER_SLOWEST));

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
    try (FulfilOrderUnderTest held = atTheLocalRunsScale(backend, "late-booking-garbled")) {
      String orderId = Orders.newId("ORD-GARBLED");
      // Half the contract's 300 s: well inside it, and long after the second message's try looks the order up.
      held.partner().script().forOrder(orderId, 1, new Reaction.LateBooking(new Reaction.Garbled(-77),
          SCALE.toLocal(PARTNER_SLOWEST).dividedBy(2)));
      String first = held.send(Orders.body(orderId));
      Await.until(SCALE.toLocal(PARTNER_SLOWEST).multipliedBy(2), () -> held.invocations().unsuccessfulTries(first) > 0);
      Optional<IdempotencyRecords.Record> firstTry = held.record(orderId);

      String second = held.send(Orders.body(orderId));
      held.awaitDeletedWithinTheirLives(List.of(first, second));

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
