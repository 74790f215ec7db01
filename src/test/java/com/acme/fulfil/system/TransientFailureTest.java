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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Failures that pass: the partner down for a while, DynamoDB or Secrets Manager failing in the middle
 * of invocations. Orders wait out the visibility timeout and are booked once when the trouble ends;
 * nothing is booked that the idempotency table does not know about, and nothing reaches the DLQ.
 */
@OnSelectedBackend
class TransientFailureTest {
  /** In a DynamoDB request body, the mark of the update that records a booking (its status value). */
  private static final String RECORDS_A_BOOKING = "COMPLETED";
  @AutoClose
  private static FulfilOrderUnderTest fulfil;
  private static Duration visibility;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "transient").faultyDynamoDb().faultySecretsManager().start();
    visibility = fulfil.queues().settings().visibilityTimeout();
  }

  @AfterEach
  void healed() {
    fulfil.dynamoDb().heal();
    fulfil.secretsManager().heal();
    fulfil.partner().healthy();
  }

  @Test
  void partnerOutageShorterThanTheRetryHorizonBooksEveryOrderOnceAndDeadLettersNothing() {
    Duration outage = visibility.multipliedBy(5).dividedBy(3);
    fulfil.partner().outage(outage);
    List<String> orderIds = newOrders("ORD-OUTAGE", 20);
    long started = System.nanoTime();

    List<String> messageIds = fulfil.sendAll(orderIds.stream().map(Orders::body).toList());
    fulfil.awaitDeleted(messageIds, outage.plus(visibility.multipliedBy(3)));

    assertEachBookedOnceAndNothingDeadLettered(orderIds, messageIds);
    int mostReceives = messageIds.stream().mapToInt(fulfil.invocations()::receives).max().orElse(0);
    assertThat(mostReceives).as("the outage made orders retry, and none ran out of receives")
        .isGreaterThan(1).isLessThanOrEqualTo(fulfil.budget().maxReceiveCount());
    Figures.print("partner outage of %.0f s (retry horizon %d s): %d orders, %d bookings, up to %d receives each, 0 in the DLQ, settled in %.1f s",
        outage.toMillis() / 1000.0, fulfil.budget().retryHorizon().toSeconds(), orderIds.size(), bookingsOf(orderIds).size(),
        mostReceives, (System.nanoTime() - started) / 1e9);
  }

  @Test
  void dynamoDbOutageBooksNothingUntilTheOrdersCanBeRecordedAndLosesNoMessage() {
    fulfil.dynamoDb().failEverything();
    List<String> orderIds = newOrders("ORD-DDB-DOWN", 10);
    List<String> messageIds = fulfil.sendAll(orderIds.stream().map(Orders::body).toList());
    awaitFirstTries(messageIds);

    List<Booking> bookedDuringOutage = bookingsOf(orderIds);
    int refused = fulfil.dynamoDb().refused("UpdateItem");
    fulfil.dynamoDb().heal();
    fulfil.awaitDeleted(messageIds, visibility.multipliedBy(3));

    assertThat(refused).as("the outage met the function").isPositive();
    assertThat(bookedDuringOutage).as("booked while no idempotency record could be written").isEmpty();
    assertEachBookedOnceAndNothingDeadLettered(orderIds, messageIds);
    Figures.print("DynamoDB outage: %d orders, %d claims refused, 0 booked during it, %d bookings after",
        orderIds.size(), refused, bookingsOf(orderIds).size());
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
    fulfil.awaitDeleted(List.of(messageId), visibility.multipliedBy(3));

    assertThat(unfinished - unfinishedBefore).as("the booked order's unfinished record").isEqualTo(1);
    assertThat(trace.lastPostAt()).as("the trace says a booking request left").isPresent();
    // Two at least: on a loaded machine a retry can also run out of time before the one that adopts.
    assertThat(fulfil.invocations().receives(messageId)).as("tries").isGreaterThanOrEqualTo(2);
    assertEachBookedOnceAndNothingDeadLettered(List.of(orderId), List.of(messageId));
    assertThat(fulfil.record(orderId)).as("the order's story").hasValueSatisfying(story -> {
      assertThat(story.tries()).isGreaterThanOrEqualTo(2);
      assertThat(story.lastOutcome()).contains("adopted");
      assertThat(story.lastPostAt()).isEqualTo(trace.lastPostAt());
    });
    Figures.print("DynamoDB failing after the booking: %d booking records refused, %d booking(s), adopted on redelivery",
        fulfil.dynamoDb().refused("UpdateItem"), fulfil.partner().bookingsFor(orderId).size());
  }

  @Test
  void secretsManagerOutageDuringAKeyRotationDelaysOrdersWithoutLosingOne() {
    fulfil.secretsManager().failEverything();
    // The partner cuts over and the secret holds the new key, but the function cannot read it.
    fulfil.partner().rotateKey("partner-key-2");
    fulfil.putPartnerKey("partner-key-2");
    List<String> orderIds = newOrders("ORD-SM-DOWN", 5);
    List<String> messageIds = fulfil.sendAll(orderIds.stream().map(Orders::body).toList());
    // Down until it has refused the function, and every order has had a try in the outage.
    Await.until(visibility.multipliedBy(3), () -> fulfil.secretsManager().refused("GetSecretValue") > 0);
    awaitFirstTries(messageIds);

    int refused = fulfil.secretsManager().refused("GetSecretValue");
    List<Booking> bookedDuringOutage = bookingsOf(orderIds);
    fulfil.secretsManager().heal();
    // An upper bound only: on a machine as loaded as four test JVMs can make it, an order took 95 s after the
    // heal, tries run out of time before they could book, each costing the message a visibility timeout.
    fulfil.awaitDeleted(messageIds, visibility.multipliedBy(10));

    assertThat(refused).as("the outage met the function").isPositive();
    assertThat(bookedDuringOutage).isEmpty();
    assertThat(messageIds).allSatisfy(id -> assertThat(fulfil.invocations().receives(id)).as("tries").isGreaterThan(1));
    assertEachBookedOnceAndNothingDeadLettered(orderIds, messageIds);
    Figures.print("Secrets Manager outage during a key rotation: %d orders, %d GetSecretValue refused, %d bookings after, 0 in the DLQ",
        orderIds.size(), refused, bookingsOf(orderIds).size());
  }

  /** Records of tries that have not recorded a booking (yet): each an order that may have been booked. */
  private static int unfinishedRecords() {
    return (int) fulfil.records().all().stream().filter(record -> !record.completed()).count();
  }

  /**
   * Until every message has had a try that ran to its end in the failure being tested and said so (its
   * batch item failure). A try Lambda killed at its timeout, as a cold environment on a loaded machine
   * can be, met nothing; its message comes back after the visibility timeout, which the wait allows for.
   */
  private static void awaitFirstTries(List<String> messageIds) {
    Await.until(visibility.multipliedBy(3), () -> messageIds.stream().allMatch(id ->
        fulfil.invocations().reportedFailures(id) > 0 || fulfil.invocations().deleted(id))
        && fulfil.invocations().running() == 0);
  }

  private static List<String> newOrders(String prefix, int count) {
    List<String> orderIds = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      orderIds.add(Orders.newId(prefix));
    }
    return orderIds;
  }

  private static List<Booking> bookingsOf(List<String> orderIds) {
    return fulfil.partner().bookings().stream().filter(booking -> orderIds.contains(booking.orderId())).toList();
  }

  /** Every order one booking, each booking recorded under its order, every message deleted, none in the DLQ. */
  private static void assertEachBookedOnceAndNothingDeadLettered(List<String> orderIds, List<String> messageIds) {
    Map<String, String> recorded = fulfil.records().all().stream()
        .filter(IdempotencyRecords.Record::completed)
        .collect(Collectors.toMap(r -> r.orderId().orElseThrow(), r -> r.shipmentId().orElseThrow()));
    SoftAssertions softly = new SoftAssertions();
    for (String orderId : orderIds) {
      List<Booking> bookings = fulfil.partner().bookingsFor(orderId);
      softly.assertThat(bookings).as(orderId + ": bookings").hasSize(1);
      if (bookings.size() == 1) {
        softly.assertThat(recorded.get(orderId)).as(orderId + ": recorded booking").isEqualTo(bookings.getFirst().shipmentId());
      }
    }
    softly.assertThat(fulfil.invocations().deletedAll(messageIds)).as("every message deleted").isTrue();
    softly.assertThat(fulfil.deadLetters().messages().keySet()).as("in the DLQ").doesNotContainAnyElementsOf(messageIds);
    softly.assertAll();
  }
}
