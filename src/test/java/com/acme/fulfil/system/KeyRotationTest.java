package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.Orders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The partner rotates its API key while orders stream in. It cuts over first and the new key reaches
 * the secret a moment later, the race a rotation runs in real life: orders caught between the two
 * are refused with 401, the function re-reads the secret, and what still fails is retried, never
 * dead-lettered. The moment is "once the partner has refused a request with the old key", not a fixed
 * second: on a loaded machine the orders of a fixed window could all reach the function after the
 * secret changed, and the race this test is about would not be run.
 */
@OnSelectedBackend
class KeyRotationTest {
  private static final String NEXT_KEY = "partner-key-2";
  private static final int ORDERS = 40;
  private static final Duration SPACING = Duration.ofMillis(100);

  @AutoClose
  private static FulfilOrderUnderTest fulfil;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "key-rotation").start();
  }

  @Test
  void keyRotationMidStreamSendsNoOrderToTheDlq() throws InterruptedException {
    List<String> orderIds = new ArrayList<>();
    List<String> messageIds = new ArrayList<>();
    long started = System.nanoTime();
    Duration visibility = fulfil.queues().settings().visibilityTimeout();
    boolean secretUpdated = false;
    for (int i = 0; i < ORDERS; i++) {
      if (i == ORDERS / 2) {
        // The environments have the old key from the first half's bookings when the partner cuts over.
        fulfil.partner().awaitBookings(ORDERS / 2, visibility.multipliedBy(2));
        fulfil.partner().rotateKey(NEXT_KEY);
      }
      if (!secretUpdated && i > ORDERS / 2 && fulfil.partner().unauthorizedCount() > 0) {
        fulfil.putPartnerKey(NEXT_KEY);
        secretUpdated = true;
      }
      String orderId = Orders.newId("ORD-ROTATION");
      orderIds.add(orderId);
      messageIds.add(fulfil.send(Orders.body(orderId)));
      Thread.sleep(SPACING);
    }
    if (!secretUpdated) {
      Await.until(visibility, () -> fulfil.partner().unauthorizedCount() > 0);
      fulfil.putPartnerKey(NEXT_KEY);
    }
    fulfil.awaitDeletedWithinTheirLives(messageIds);

    SoftAssertions softly = new SoftAssertions();
    orderIds.forEach(orderId -> softly.assertThat(fulfil.partner().bookingsFor(orderId)).as(orderId + ": bookings").hasSize(1));
    softly.assertThat(fulfil.invocations().deletedAll(messageIds)).as("every message deleted").isTrue();
    softly.assertThat(fulfil.deadLetters().messages()).as("DLQ").isEmpty();
    softly.assertThat(fulfil.partner().unauthorizedCount()).as("requests refused with the old key").isPositive();
    softly.assertAll();
    int mostReceives = messageIds.stream().mapToInt(fulfil.invocations()::receives).max().orElse(0);
    Figures.print("key rotation mid-stream: %d orders, %d bookings, %d requests refused (401), up to %d receives, 0 in the DLQ, %.1f s",
        ORDERS, fulfil.partner().bookings().size(), fulfil.partner().unauthorizedCount(), mostReceives, (System.nanoTime() - started) / 1e9);
    assertThat(mostReceives).isLessThan(5);
  }
}
