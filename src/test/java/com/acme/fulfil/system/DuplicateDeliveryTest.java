package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.esm.Invocation;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.InvocationLog;
import com.acme.fulfil.system.harness.Orders;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SQS and the producer deliver an order more than once; the partner never deduplicates. Each way an
 * order arrives twice ends with one courier booked, judged by the partner's ledger.
 */
@OnSelectedBackend
class DuplicateDeliveryTest {
  /** Twelve seconds of visibility and a retry or two: far more than any of these needs. */
  private static final Duration SETTLES = Duration.ofSeconds(40);

  private static final Set<String> redeliverOrders = ConcurrentHashMap.newKeySet();
  @AutoClose
  private static FulfilOrderUnderTest fulfil;
  private static InvocationLog invocations;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "duplicates")
        .faultyDynamoDb()
        .redeliverNow(message -> redeliverOrders.removeIf(message.body()::contains))
        .start();
    invocations = fulfil.invocations();
  }

  @AfterEach
  void healthy() {
    fulfil.dynamoDb().heal();
    fulfil.partner().script().clear();
  }

  @Test
  void sameMessageDeliveredToTwoConcurrentInvocationsBooksOnce() {
    String orderId = Orders.newId("ORD-DUP-SQS");
    // The first booking waits for the message's second delivery to reach an invocation, not for a guessed time: on
    // a busy machine that may come later than any fixed delay. At most 1.2 s, which the quick budget's booking
    // window holds.
    AtomicReference<String> sent = new AtomicReference<>();
    fulfil.partner().script().forOrder(orderId, 1, new Reaction.BookWhen(
        () -> sent.get() != null && invocations.receives(sent.get()) >= 2, Duration.ofMillis(1_200)));
    redeliverOrders.add(orderId);

    String messageId = fulfil.send(Orders.body(orderId));
    sent.set(messageId);
    fulfil.awaitDeleted(List.of(messageId), SETTLES);

    // An invocation counts once it has settled: the second may still be running when the first deletes the message.
    assertThat(Await.until(SETTLES, () -> invocations.ranConcurrently(messageId)))
        .as("two invocations held the message at once").isTrue();
    assertThat(fulfil.partner().bookingsFor(orderId)).hasSize(1);
    assertThat(invocations.deleted(messageId)).isTrue();
    assertThat(fulfil.deadLetters().messages()).doesNotContainKey(messageId);
    Figures.print("same message, two concurrent invocations: %d receives, %d booking(s)",
        invocations.receives(messageId), fulfil.partner().bookingsFor(orderId).size());
  }

  @Test
  void messageRedeliveredAfterItsInvocationTimedOutBooksOnce() {
    String orderId = Orders.newId("ORD-DUP-TIMEOUT");
    // The partner books at once; recording the booking (the update that sets COMPLETED) then hangs
    // past the 2 s function timeout.
    fulfil.dynamoDb().stall("UpdateItem", "COMPLETED", Duration.ofSeconds(5));

    String messageId = fulfil.send(Orders.body(orderId));
    Await.until(SETTLES, () -> timedOut(messageId));
    fulfil.dynamoDb().heal();
    fulfil.awaitDeleted(List.of(messageId), SETTLES);

    assertThat(timedOut(messageId)).as("the first invocation timed out").isTrue();
    assertThat(invocations.receives(messageId)).isGreaterThanOrEqualTo(2);
    assertThat(fulfil.partner().bookingsFor(orderId)).hasSize(1);
    assertThat(invocations.deleted(messageId)).isTrue();
    assertThat(fulfil.records().completed(orderId)).hasValueSatisfying(record ->
        assertThat(record.shipmentId()).contains(fulfil.partner().bookingsFor(orderId).getFirst().shipmentId()));
    Figures.print("redelivered after a timed-out invocation: %d receives, %d booking(s), %d lookup(s)",
        invocations.receives(messageId), fulfil.partner().bookingsFor(orderId).size(), fulfil.partner().lookupCount());
  }

  @Test
  void orderSentInTwoMessagesBooksOnce() {
    String orderId = Orders.newId("ORD-DUP-PRODUCER");

    List<String> messageIds = fulfil.sendAll(List.of(Orders.body(orderId), Orders.body(orderId)));
    fulfil.awaitDeleted(messageIds, SETTLES);
    // The producer retries once more, long after the order was booked.
    String late = fulfil.send(Orders.body(orderId));
    fulfil.awaitDeleted(List.of(late), SETTLES);

    assertThat(Set.copyOf(messageIds)).hasSize(2).doesNotContain(late);
    assertThat(fulfil.partner().bookingsFor(orderId)).hasSize(1);
    assertThat(invocations.deletedAll(List.of(messageIds.get(0), messageIds.get(1), late))).isTrue();
    Figures.print("one order in three messages: %d booking(s)", fulfil.partner().bookingsFor(orderId).size());
  }

  @Test
  void producersCopyAfterTheOrdersRecordIsGoneLooksTheOrderUpAndBooksNothing() {
    String orderId = Orders.newId("ORD-DUP-NO-RECORD");
    String first = fulfil.send(Orders.body(orderId));
    fulfil.awaitDeleted(List.of(first), SETTLES);
    // Its TTL passed while a message carrying the order lived on (a redrive starts a new life), or the
    // table was restored from an older backup: the copy arrives with receive count 1 and no record.
    fulfil.forgetRecord(orderId);

    String copy = fulfil.send(Orders.body(orderId));
    fulfil.awaitDeleted(List.of(copy), SETTLES);

    assertThat(invocations.receives(copy)).as("the copy's receives").isEqualTo(1);
    assertThat(fulfil.partner().bookingsFor(orderId)).as("the partner's bookings of the order").hasSize(1);
    assertThat(lookupsOf(orderId)).as("lookups of the order").isPositive();
    assertThat(fulfil.record(orderId)).as("the order's new record").hasValueSatisfying(record -> {
      assertThat(record.shipmentId()).contains(fulfil.partner().bookingsFor(orderId).getFirst().shipmentId());
      assertThat(record.lastOutcome()).contains("adopted");
    });
    Figures.print("producer's copy after the record was gone: %d booking(s), %d lookup(s) of the order",
        fulfil.partner().bookingsFor(orderId).size(), lookupsOf(orderId));
  }

  @Test
  void duplicateOfABookedOrderIsDoneWhenItsRecordCannotBeKeptAlive() {
    String orderId = Orders.newId("ORD-DUP-KEEPALIVE");
    String first = fulfil.send(Orders.body(orderId));
    fulfil.awaitDeleted(List.of(first), SETTLES);
    // The only write a duplicate of a booked order makes lengthens the record's life (its condition
    // names :until); DynamoDB throttling it must not turn a finished order into a retry.
    fulfil.dynamoDb().throttle("UpdateItem", ":until");

    String copy = fulfil.send(Orders.body(orderId));
    fulfil.awaitDeleted(List.of(copy), SETTLES);

    assertThat(fulfil.dynamoDb().refused("UpdateItem")).as("the keep-alive met the throttling").isPositive();
    assertThat(invocations.receives(copy)).as("the copy's receives").isEqualTo(1);
    assertThat(fulfil.partner().bookingsFor(orderId)).hasSize(1);
    assertThat(fulfil.deadLetters().messages()).doesNotContainKey(copy);
  }

  private static long lookupsOf(String orderId) {
    return fulfil.partner().requests().stream()
        .filter(request -> request.method().equals("GET") && request.orderId().equals(Optional.of(orderId)))
        .count();
  }

  private static boolean timedOut(String messageId) {
    return invocations.runs().stream().anyMatch(run -> run.handled(messageId)
        && run.invocation().outcome() == Invocation.Outcome.TIMED_OUT);
  }
}
