package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.Orders;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A failure that passes: the partner down for a while, shorter than the retry horizon. Orders wait out the
 * visibility timeout and are booked once when it ends, and nothing reaches the DLQ. (Secrets Manager's outage
 * is {@link SecretsManagerOutageTest}'s, DynamoDB's {@link DynamoDbFailureTest}'s: each a class of its own, so
 * that their waits run beside the other classes, not one after another.)
 */
@OnSelectedBackend
class PartnerOutageTest {
  @AutoClose
  private static FulfilOrderUnderTest fulfil;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "partner-outage").start();
  }

  @Test
  void partnerOutageShorterThanTheRetryHorizonBooksEveryOrderOnceAndDeadLettersNothing() {
    OutageChecks checks = new OutageChecks(fulfil);
    Duration visibility = fulfil.queues().settings().visibilityTimeout();
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
}
