package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.Orders;
import java.time.Duration;
import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * On-call's redrive: the partner refused some orders until it fixed its side, the messages went to the
 * DLQ, and once the cause is fixed they are moved back with {@code StartMessageMoveTask}. Each is then
 * booked once; one whose order was booked meanwhile (the producer sent it again) is not booked again.
 */
@OnSelectedBackend
class RedriveTest {
  @AutoClose
  private static FulfilOrderUnderTest fulfil;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "redrive").start();
  }

  @Test
  void messagesRedrivenAfterTheCauseIsFixedAreBookedOnceAndABookedOneIsNotBookedAgain() {
    Duration visibility = fulfil.queues().settings().visibilityTimeout();
    String refusedA = Orders.newId("ORD-REDRIVE-A");
    String refusedB = Orders.newId("ORD-REDRIVE-B");
    String bookedMeanwhile = Orders.newId("ORD-REDRIVE-RESENT");
    // The partner's address service is broken for these orders: 422 on every try, for now.
    for (String orderId : List.of(refusedA, refusedB, bookedMeanwhile)) {
      fulfil.partner().script().forOrder(orderId, Reaction.addressRejected());
    }
    List<String> deadLettered = fulfil.sendAll(List.of(Orders.body(refusedA), Orders.body(refusedB), Orders.body(bookedMeanwhile)));
    // On a loaded machine a first try can find too little time left to book, and its retry comes a
    // visibility timeout later: the 422 that sends each to the DLQ may take a few receives to come.
    assertThat(fulfil.awaitDeadLettered(deadLettered, visibility.multipliedBy(5))).as("all three in the DLQ").isTrue();
    // A try killed at its timeout after it sent its dead letter leaves the source message to return
    // after the visibility timeout: it is refused again now, not booked once the partner is fixed.
    assertThat(Await.until(visibility.multipliedBy(3), () -> fulfil.queued().total() == 0))
        .as("nothing of the three left in orders-to-fulfil").isTrue();

    // The partner fixes its side; the producer happens to send one of the orders again, and it is booked.
    fulfil.partner().script().clear();
    String resent = fulfil.send(Orders.body(bookedMeanwhile));
    assertThat(fulfil.awaitDeleted(List.of(resent), visibility.multipliedBy(5))).as("the resent order booked").isTrue();
    int bookingsBeforeRedrive = fulfil.partner().bookings().size();

    fulfil.redrive();
    boolean emptied = Await.until(visibility.multipliedBy(3),
        () -> fulfil.deadLetters().messages().isEmpty() && fulfil.queued().total() == 0);

    SoftAssertions softly = new SoftAssertions();
    softly.assertThat(bookingsBeforeRedrive).as("bookings before the redrive").isEqualTo(1);
    softly.assertThat(emptied).as("DLQ and queue emptied").isTrue();
    softly.assertThat(fulfil.partner().bookingsFor(refusedA)).as("redriven order A").hasSize(1);
    softly.assertThat(fulfil.partner().bookingsFor(refusedB)).as("redriven order B").hasSize(1);
    softly.assertThat(fulfil.partner().bookingsFor(bookedMeanwhile)).as("redriven order booked meanwhile").hasSize(1);
    softly.assertThat(fulfil.invocations().deletedAll(deadLettered)).as("redriven messages deleted").isTrue();
    softly.assertAll();
    Figures.print("redrive: %d messages moved back from the DLQ, %d bookings before, %d after (one order already booked)",
        deadLettered.size(), bookingsBeforeRedrive, fulfil.partner().bookings().size());
  }
}
