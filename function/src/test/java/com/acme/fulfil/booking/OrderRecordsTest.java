package com.acme.fulfil.booking;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.records.OrderRecordLayout;
import com.acme.fulfil.local.aws.DynamoDbEmulator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The order's record against the DynamoDB emulator: the conditions are DynamoDB's to evaluate, not ours to mock. */
class OrderRecordsTest {
  private static final String TABLE = "fulfil-order-idempotency";
  private static final String FUNCTION = "fulfil-order";
  private static final Duration HOLD = Duration.ofSeconds(305);
  private static final Duration LIFETIME = Duration.ofDays(21);
  private static DynamoDbEmulator emulator;
  private static DynamoDbClient dynamoDb;

  private final ModelParts.SettableClock clock = new ModelParts.SettableClock(Instant.parse("2026-11-25T03:00:00Z"));
  private final OrderRecords records = new OrderRecords(dynamoDb, TABLE, FUNCTION, HOLD, LIFETIME, new ObjectMapper(), clock);
  private final String orderId = "ORD-" + UUID.randomUUID();

  @BeforeAll
  static void createTable() {
    emulator = DynamoDbEmulator.start();
    dynamoDb = ModelParts.dynamoDb(emulator.endpoint());
    ModelParts.createTable(dynamoDb, TABLE);
  }

  /** A try whose invocation ends at {@code end}, on this test's clock. */
  private CallWindow until(Instant end) {
    return new CallWindow(clock, () -> Duration.between(clock.instant(), end).toMillis(), Duration.ZERO, Duration.ZERO,
        Duration.ZERO);
  }

  @AfterAll
  static void stop() {
    dynamoDb.close();
    emulator.close();
  }

  @Test
  void aNewOrderIsClaimedUntilItsInvocationEndsPlusTheLateBookingHoldUnderItsOneKey() throws Exception {
    Instant invocationEnd = clock.instant().plusSeconds(300);

    OrderRecords.Claim claim = (OrderRecords.Claim) records.claim(orderId, "try-" + UUID.randomUUID(), until(invocationEnd));

    String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(orderId.getBytes(StandardCharsets.UTF_8)));
    assertThat(claim.key()).isEqualTo("fulfil-order.book#" + md5);
    Map<String, AttributeValue> item = item();
    assertThat(item.get("status").s()).isEqualTo("INPROGRESS");
    assertThat(item.get("in_progress_expiration").n()).isEqualTo(Long.toString(invocationEnd.plus(HOLD).toEpochMilli()));
    assertThat(item.get("tries").n()).isEqualTo("1");
    assertThat(item.get("last_outcome").s()).isEqualTo("claimed");
    assertThat(item.get("last_try_at").s()).isEqualTo("2026-11-25T03:00:00Z");
    assertThat(item.get("expiration").n()).isEqualTo(Long.toString(clock.instant().plus(LIFETIME).getEpochSecond()));
  }

  @Test
  void aLiveClaimIsNotTakenOverAndSaysUntilWhen() {
    Instant invocationEnd = clock.instant().plusSeconds(300);
    records.claim(orderId, "try-" + UUID.randomUUID(), until(invocationEnd));
    clock.advance(Duration.ofSeconds(600));

    assertThat(records.claim(orderId, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(300))))
        .isEqualTo(new OrderRecords.HeldElsewhere(invocationEnd.plus(HOLD)));
  }

  @Test
  void theClaimOfATryKilledAtItsTimeoutIsTakenOverOnlyAfterTheHold() {
    Instant invocationEnd = clock.instant().plusSeconds(300);
    records.claim(orderId, "try-" + UUID.randomUUID(), until(invocationEnd));

    clock.set(invocationEnd.plus(HOLD).minusMillis(1));
    assertThat(records.claim(orderId, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(300)))).isInstanceOf(OrderRecords.HeldElsewhere.class);
    clock.set(invocationEnd.plus(HOLD).plusMillis(1));
    OrderRecords.ClaimResult next = records.claim(orderId, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(300)));

    assertThat(next).isInstanceOf(OrderRecords.Claim.class);
    assertThat(item().get("tries").n()).isEqualTo("2");
  }

  @Test
  void aBookedOrderIsFoundBookedAndEachDeliveryThatFindsItKeepsTheRecordAliveForTheMessagesLife() {
    OrderRecords.Claim claim = (OrderRecords.Claim) records.claim(orderId, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(300)));
    assertThat(records.beforeBookingRequest(claim)).isPresent();
    Booking booking = new Booking(orderId, "SHP-1", "TRK-1", "Evri", "https://label", Booking.Source.BOOKED, "try-1");
    records.complete(claim, booking);
    clock.advance(Duration.ofDays(10));

    assertThat(records.claim(orderId, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(300)))).isEqualTo(new OrderRecords.AlreadyBooked(booking));

    Map<String, AttributeValue> item = item();
    assertThat(item.get("status").s()).isEqualTo("COMPLETED");
    assertThat(item.get("last_outcome").s()).isEqualTo("booked");
    assertThat(item.get("last_post_at").s()).isEqualTo("2026-11-25T03:00:00Z");
    assertThat(item.get("expiration").n()).as("a redriven message starts a new life: the record outlives it")
        .isEqualTo(Long.toString(clock.instant().plus(LIFETIME).getEpochSecond()));
  }

  @Test
  void aFailedTryFreesTheOrderAtOnceAndLeavesItsReason() {
    OrderRecords.Claim claim = (OrderRecords.Claim) records.claim(orderId, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(300)));

    records.release(claim, "failed", "PartnerUnavailableException: 503 before booking");

    Map<String, AttributeValue> item = item();
    assertThat(item.get("last_outcome").s()).isEqualTo("failed");
    assertThat(item.get("last_reason").s()).isEqualTo("PartnerUnavailableException: 503 before booking");
    assertThat(records.claim(orderId, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(300)))).isInstanceOf(OrderRecords.Claim.class);
    assertThat(item().get("tries").n()).isEqualTo("2");
    assertThat(item().containsKey("last_reason")).as("a new try starts a new story line").isFalse();
  }

  @Test
  void anUnansweredBookingHoldsTheOrderUntilThePartnerCanNoLongerBookForIt() {
    OrderRecords.Claim claim = (OrderRecords.Claim) records.claim(orderId, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(300)));
    OrderRecords.BookingRequestOut request = records.beforeBookingRequest(claim).orElseThrow();
    clock.advance(Duration.ofSeconds(4));
    Instant stoppedWaiting = clock.instant();

    assertThat(records.hold(request, "outcome_unknown", "connection closed")).isEqualTo(stoppedWaiting.plus(HOLD));

    clock.set(stoppedWaiting.plus(HOLD).minusMillis(1));
    assertThat(records.claim(orderId, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(300))))
        .isEqualTo(new OrderRecords.HeldElsewhere(stoppedWaiting.plus(HOLD)));
    clock.set(stoppedWaiting.plus(HOLD).plusMillis(1));
    assertThat(records.claim(orderId, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(300)))).isInstanceOf(OrderRecords.Claim.class);
  }

  /**
   * DynamoDB applied the claim and its answer was lost; the SDK sent the same request again, which now
   * fails its condition against the try's own claim. The try holds the order: it must know it.
   */
  @Test
  void aClaimSentAgainAfterItsAnswerWasLostIsThisTrysOwn() {
    DynamoDbClient answerLostOnce = (DynamoDbClient) Proxy.newProxyInstance(DynamoDbClient.class.getClassLoader(),
        new Class<?>[] {DynamoDbClient.class}, (proxy, method, args) -> {
          try {
            if (method.getName().equals("updateItem")) {
              method.invoke(dynamoDb, args);
            }
            return method.invoke(dynamoDb, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    OrderRecords resending = new OrderRecords(answerLostOnce, TABLE, FUNCTION, HOLD, LIFETIME, new ObjectMapper(), clock);
    Instant invocationEnd = clock.instant().plusSeconds(300);

    assertThat(resending.claim(orderId, "try-1", until(invocationEnd)))
        .isEqualTo(new OrderRecords.Claim(orderId, OrderRecordLayout.keyOf(FUNCTION, orderId), "try-1", invocationEnd.plus(HOLD),
            OrderRecords.Found.NOTHING));
    assertThat(item().get("tries").n()).as("one try, counted once").isEqualTo("1");
    assertThat(records.claim(orderId, "try-2", until(invocationEnd))).as("and no other try holds it")
        .isInstanceOf(OrderRecords.HeldElsewhere.class);
  }

  /**
   * DynamoDB applied the claim, its answer was lost and the SDK's retries ran out: the try fails before it sends
   * anything, so it frees what may be its claim rather than leave the order locked for its invocation and the hold.
   */
  @Test
  void aClaimAppliedButReportedFailedIsFreedAgain() {
    java.util.concurrent.atomic.AtomicBoolean lost = new java.util.concurrent.atomic.AtomicBoolean();
    DynamoDbClient answerLost = (DynamoDbClient) Proxy.newProxyInstance(DynamoDbClient.class.getClassLoader(),
        new Class<?>[] {DynamoDbClient.class}, (proxy, method, args) -> {
          try {
            Object answer = method.invoke(dynamoDb, args);
            if (method.getName().equals("updateItem") && lost.compareAndSet(false, true)) {
              throw software.amazon.awssdk.core.exception.SdkClientException.create("the answer was lost; retries exhausted");
            }
            return answer;
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    OrderRecords losing = new OrderRecords(answerLost, TABLE, FUNCTION, HOLD, LIFETIME, new ObjectMapper(), clock);
    Instant invocationEnd = clock.instant().plusSeconds(300);

    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> losing.claim(orderId, "try-1", until(invocationEnd))))
        .isInstanceOf(software.amazon.awssdk.core.exception.SdkException.class);
    assertThat(records.claim(orderId, "try-2", until(invocationEnd))).as("the next try finds the order free")
        .isInstanceOf(OrderRecords.Claim.class);
  }

  @Test
  void aTryThatOutlivedItsClaimCanNeitherSendNorFreeTheClaimOfTheTryThatTookOver() {
    OrderRecords.Claim late = (OrderRecords.Claim) records.claim(orderId, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(1)));
    clock.advance(Duration.ofSeconds(1).plus(HOLD).plusMillis(1));
    Instant takerEnd = clock.instant().plusSeconds(300);
    OrderRecords.Claim taker = (OrderRecords.Claim) records.claim(orderId, "try-" + UUID.randomUUID(), until(takerEnd));

    assertThat(records.beforeBookingRequest(late)).as("the late try may not send its booking request").isEmpty();
    records.release(late, "failed", "late");

    assertThat(item().get("in_progress_expiration").n()).isEqualTo(Long.toString(takerEnd.plus(HOLD).toEpochMilli()));
    assertThat(records.beforeBookingRequest(taker)).isPresent();
  }

  /** Found by OrderLifeModelTest: two tries of one batch share their invocation's end to the millisecond. */
  @Test
  void aTryWhoseRecordVanishedUnderItCanNeitherSendNorFreeTheClaimOfATryWithTheSameDeadline() {
    Instant end = clock.instant().plusSeconds(300);
    OrderRecords.Claim first = (OrderRecords.Claim) records.claim(orderId, "try-1", until(end));
    dynamoDb.deleteItem(r -> r.tableName(TABLE).key(Map.of("id", AttributeValue.fromS(first.key()))));
    OrderRecords.Claim second = (OrderRecords.Claim) records.claim(orderId, "try-2", until(end));

    assertThat(records.beforeBookingRequest(first)).as("the try whose claim vanished may not send").isEmpty();
    records.release(first, "failed", "its claim vanished");
    assertThat(records.beforeBookingRequest(second)).isPresent();
    assertThat(item().get("held_by").s()).isEqualTo("try-2");
  }

  @Test
  void ofTwoTriesClaimingANewOrderAtTheSameMomentExactlyOneHoldsIt() throws Exception {
    for (int round = 0; round < 100; round++) {
      String order = "ORD-" + UUID.randomUUID();
      CyclicBarrier together = new CyclicBarrier(2);
      Callable<OrderRecords.ClaimResult> claim = () -> {
        together.await();
        return records.claim(order, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(300)));
      };
      try (ExecutorService tries = Executors.newFixedThreadPool(2)) {
        Future<OrderRecords.ClaimResult> first = tries.submit(claim);
        Future<OrderRecords.ClaimResult> second = tries.submit(claim);
        assertThat(List.of(first.get(), second.get())).as("round " + round)
            .filteredOn(OrderRecords.Claim.class::isInstance).hasSize(1);
      }
    }
  }

  /** Records written before the function kept its own, by Powertools 1.15.0, stay binding after an upgrade. */
  @Test
  void recordsInPowertoolsLayoutAreHonoured() {
    String booked = "ORD-" + UUID.randomUUID();
    String key = OrderRecordLayout.keyOf(FUNCTION, booked);
    long expiry = clock.instant().plus(Duration.ofDays(5)).getEpochSecond();
    dynamoDb.putItem(r -> r.tableName(TABLE).item(Map.of(
        "id", AttributeValue.fromS(key), "status", AttributeValue.fromS("COMPLETED"),
        "expiration", AttributeValue.fromN(Long.toString(expiry)),
        "in_progress_expiration", AttributeValue.fromN(Long.toString(clock.instant().toEpochMilli())),
        "data", AttributeValue.fromS("{\"orderId\":\"" + booked + "\",\"shipmentId\":\"SHP-OLD\",\"trackingNumber\":\"T\","
            + "\"courier\":\"DPD\",\"labelUrl\":\"https://l\",\"source\":\"BOOKED\",\"attemptId\":\"old\"}"))));
    String held = "ORD-" + UUID.randomUUID();
    long lockUntil = clock.instant().plusSeconds(100).toEpochMilli();
    dynamoDb.putItem(r -> r.tableName(TABLE).item(Map.of(
        "id", AttributeValue.fromS(OrderRecordLayout.keyOf(FUNCTION, held)),
        "status", AttributeValue.fromS("INPROGRESS"), "expiration", AttributeValue.fromN(Long.toString(expiry)),
        "in_progress_expiration", AttributeValue.fromN(Long.toString(lockUntil)))));

    assertThat(records.claim(booked, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(300)))).isEqualTo(new OrderRecords.AlreadyBooked(
        new Booking(booked, "SHP-OLD", "T", "DPD", "https://l", Booking.Source.BOOKED, "old")));
    assertThat(records.claim(held, "try-" + UUID.randomUUID(), until(clock.instant().plusSeconds(300))))
        .isEqualTo(new OrderRecords.HeldElsewhere(Instant.ofEpochMilli(lockUntil)));
  }

  private Map<String, AttributeValue> item() {
    return dynamoDb.getItem(r -> r.tableName(TABLE).consistentRead(true)
        .key(Map.of("id", AttributeValue.fromS(OrderRecordLayout.keyOf(FUNCTION, orderId))))).item();
  }
}
