package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.sim.Booking;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.Orders;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Failures that pass: the partner down for a while, Secrets Manager failing in the middle of invocations
 * (DynamoDB's are {@link DynamoDbFailureTest}'s). Orders wait out the visibility timeout and are booked once
 * when the trouble ends, and nothing reaches the DLQ.
 */
@OnSelectedBackend
class TransientFailureTest {
  @AutoClose
  private static FulfilOrderUnderTest fulfil;
  private static Duration visibility;
  private static OutageChecks checks;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "transient").faultySecretsManager().start();
    visibility = fulfil.queues().settings().visibilityTimeout();
    checks = new OutageChecks(fulfil);
  }

  @AfterEach
  void healed() {
    fulfil.secretsManager().heal();
    fulfil.partner().healthy();
  }

  @Test
  void partnerOutageShorterThanTheRetryHorizonBooksEveryOrderOnceAndDeadLettersNothing() {
    Duration outage = visibility.multipliedBy(5).dividedBy(3);
    fulfil.partner().outage(outage);
    List<String> orderIds = OutageChecks.newOrders("ORD-OUTAGE", 20);
    long started = System.nanoTime();

    List<String> messageIds = fulfil.sendAll(orderIds.stream().map(Orders::body).toList());
    // An upper bound, as for the other outages: on a loaded machine a try that runs out of time costs its
    // message a visibility timeout.
    fulfil.awaitDeleted(messageIds, outage.plus(visibility.multipliedBy(10)));

    checks.assertEachBookedOnceAndNothingDeadLettered(orderIds, messageIds);
    int mostReceives = messageIds.stream().mapToInt(fulfil.invocations()::receives).max().orElse(0);
    assertThat(mostReceives).as("the outage made orders retry, and none ran out of receives")
        .isGreaterThan(1).isLessThanOrEqualTo(fulfil.budget().maxReceiveCount());
    Figures.print("partner outage of %.0f s (retry horizon %d s): %d orders, %d bookings, up to %d receives each, 0 in the DLQ, settled in %.1f s",
        outage.toMillis() / 1000.0, fulfil.budget().retryHorizon().toSeconds(), orderIds.size(), checks.bookingsOf(orderIds).size(),
        mostReceives, (System.nanoTime() - started) / 1e9);
  }

  @Test
  void secretsManagerOutageDuringAKeyRotationDelaysOrdersWithoutLosingOne() {
    fulfil.secretsManager().failEverything();
    // The partner cuts over and the secret holds the new key, but the function cannot read it.
    fulfil.partner().rotateKey("partner-key-2");
    fulfil.putPartnerKey("partner-key-2");
    List<String> orderIds = OutageChecks.newOrders("ORD-SM-DOWN", 5);
    List<String> messageIds = fulfil.sendAll(orderIds.stream().map(Orders::body).toList());
    // Down until it has refused the function, and every order has had a try in the outage.
    Await.until(visibility.multipliedBy(3), () -> fulfil.secretsManager().refused("GetSecretValue") > 0);
    checks.awaitFirstTries(messageIds);

    int refused = fulfil.secretsManager().refused("GetSecretValue");
    List<Booking> bookedDuringOutage = checks.bookingsOf(orderIds);
    fulfil.secretsManager().heal();
    // An upper bound only: on a machine as loaded as four test JVMs can make it, an order took 95 s after the
    // heal, tries run out of time before they could book, each costing the message a visibility timeout.
    fulfil.awaitDeleted(messageIds, visibility.multipliedBy(10));

    assertThat(refused).as("the outage met the function").isPositive();
    assertThat(bookedDuringOutage).isEmpty();
    assertThat(messageIds).allSatisfy(id -> assertThat(fulfil.invocations().receives(id)).as("tries").isGreaterThan(1));
    checks.assertEachBookedOnceAndNothingDeadLettered(orderIds, messageIds);
    Figures.print("Secrets Manager outage during a key rotation: %d orders, %d GetSecretValue refused, %d bookings after, 0 in the DLQ",
        orderIds.size(), refused, checks.bookingsOf(orderIds).size());
  }
}
