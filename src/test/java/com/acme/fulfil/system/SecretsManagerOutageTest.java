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
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A failure that passes: Secrets Manager failing in the middle of invocations, while the partner cuts over to a
 * new key. Orders wait out the visibility timeout and are booked once when it heals, and nothing reaches the DLQ.
 */
@OnSelectedBackend
class SecretsManagerOutageTest {
  @AutoClose
  private static FulfilOrderUnderTest fulfil;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "secrets-outage").faultySecretsManager().start();
  }

  @Test
  void secretsManagerOutageDuringAKeyRotationDelaysOrdersWithoutLosingOne() {
    OutageChecks checks = new OutageChecks(fulfil);
    Duration visibility = fulfil.queues().settings().visibilityTimeout();
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
