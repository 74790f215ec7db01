package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.Orders;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The partner books and its answer never arrives: the connection drops, or the answer is still not
 * there when the function must stop waiting. The try fails as "outcome unknown", the message comes
 * back after its visibility timeout, and the next try finds the booking at the partner and adopts it.
 * A booking that lands long after the function stopped waiting is {@link LateBookingTest}'s.
 */
@OnSelectedBackend
class UnknownOutcomeTest {
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

    fulfil.awaitDeletedWithinTheirLives(messageByOrder.values());
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
}
