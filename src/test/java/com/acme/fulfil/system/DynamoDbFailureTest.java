package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.sim.Booking;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.IdempotencyRecords;
import com.acme.fulfil.system.harness.Orders;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DynamoDB failing in the middle of invocations, before a booking or after it: nothing is booked that the order's
 * record does not know about, every order is booked once when DynamoDB heals, and nothing reaches the DLQ.
 */
@OnSelectedBackend
class DynamoDbFailureTest {
  /** In a DynamoDB request body, the mark of the update that records a booking (its status value). */
  private static final String RECORDS_A_BOOKING = "COMPLETED";
  @AutoClose
  private static FulfilOrderUnderTest fulfil;
  private static Duration visibility;
  private static OutageChecks checks;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "dynamodb-failure").faultyDynamoDb().start();
    visibility = fulfil.queues().settings().visibilityTimeout();
    checks = new OutageChecks(fulfil);
  }

  @AfterEach
  void healed() {
    fulfil.dynamoDb().heal();
  }

  @Test
  void dynamoDbOutageBooksNothingUntilTheOrdersCanBeRecordedAndLosesNoMessage() {
    fulfil.dynamoDb().failEverything();
    List<String> orderIds = OutageChecks.newOrders("ORD-DDB-DOWN", 10);
    List<String> messageIds = fulfil.sendAll(orderIds.stream().map(Orders::body).toList());
    checks.awaitFirstTries(messageIds);

    List<Booking> bookedDuringOutage = checks.bookingsOf(orderIds);
    int refused = fulfil.dynamoDb().refused("UpdateItem");
    fulfil.dynamoDb().heal();
    // An upper bound only, as for the Secrets Manager outage (SecretsManagerOutageTest): on a loaded machine each
    // try that runs out of time costs its message a visibility timeout.
    fulfil.awaitDeleted(messageIds, visibility.multipliedBy(10));

    assertThat(refused).as("the outage met the function").isPositive();
    assertThat(bookedDuringOutage).as("booked while no idempotency record could be written").isEmpty();
    checks.assertEachBookedOnceAndNothingDeadLettered(orderIds, messageIds);
    Figures.print("DynamoDB outage: %d orders, %d claims refused, 0 booked during it, %d bookings after",
        orderIds.size(), refused, checks.bookingsOf(orderIds).size());
  }

  @Test
  void dynamoDbFailingAfterTheBookingLeavesATraceAndTheRetryAdoptsTheBooking() throws InterruptedException {
    int unfinishedBefore = unfinishedRecords();
    fulfil.dynamoDb().fail("UpdateItem", RECORDS_A_BOOKING);
    String orderId = Orders.newId("ORD-DDB-UPDATE");
    String messageId = fulfil.send(Orders.body(orderId));
    fulfil.partner().awaitBookings(orderId, 1, visibility);

    // Booked, and the booking cannot be recorded: the claim the try wrote stays as its trace.
    int unfinished = unfinishedRecords();
    Await.until(visibility, () -> fulfil.dynamoDb().refused("UpdateItem") > 0 && fulfil.invocations().running() == 0);
    IdempotencyRecords.Record trace = fulfil.record(orderId).orElseThrow();
    fulfil.dynamoDb().heal();
    fulfil.awaitDeletedWithinTheirLives(List.of(messageId));

    assertThat(unfinished - unfinishedBefore).as("the booked order's unfinished record").isEqualTo(1);
    assertThat(trace.lastPostAt()).as("the trace says a booking request left").isPresent();
    // Two at least: on a loaded machine a retry can also run out of time before the one that adopts.
    assertThat(fulfil.invocations().receives(messageId)).as("tries").isGreaterThanOrEqualTo(2);
    checks.assertEachBookedOnceAndNothingDeadLettered(List.of(orderId), List.of(messageId));
    assertThat(fulfil.record(orderId)).as("the order's story").hasValueSatisfying(story -> {
      assertThat(story.tries()).isGreaterThanOrEqualTo(2);
      assertThat(story.lastOutcome()).contains("adopted");
      assertThat(story.lastPostAt()).isEqualTo(trace.lastPostAt());
    });
    Figures.print("DynamoDB failing after the booking: %d booking records refused, %d booking(s), adopted on redelivery",
        fulfil.dynamoDb().refused("UpdateItem"), fulfil.partner().bookingsFor(orderId).size());
  }

  /** Records of tries that have not recorded a booking (yet): each an order that may have been booked. */
  private static int unfinishedRecords() {
    return (int) fulfil.records().all().stream().filter(record -> !record.completed()).count();
  }
}
