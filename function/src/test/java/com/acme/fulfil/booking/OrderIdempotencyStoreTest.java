package com.acme.fulfil.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.dynamodbv2.local.embedded.DynamoDBEmbedded;
import com.amazonaws.services.dynamodbv2.local.shared.access.AmazonDynamoDBLocal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.lambda.powertools.idempotency.exceptions.IdempotencyItemAlreadyExistsException;
import software.amazon.lambda.powertools.idempotency.persistence.DataRecord;
import software.amazon.lambda.powertools.idempotency.persistence.DynamoDBPersistenceStore;

/** The store against DynamoDB Local: the conditions are DynamoDB's to evaluate, not ours to mock. */
class OrderIdempotencyStoreTest {
  private static final String TABLE = "fulfil-order-idempotency";
  private static AmazonDynamoDBLocal dynamoDbLocal;
  private static DynamoDbClient dynamoDb;

  private static final Duration LATE_BOOKING_HOLD = Duration.ofSeconds(305);
  private static final Duration RECORD_LIFETIME = Duration.ofDays(21);
  private final OrderIdempotencyStore store = new OrderIdempotencyStore(dynamoDb, TABLE, LATE_BOOKING_HOLD, RECORD_LIFETIME);

  @BeforeAll
  static void createTable() {
    dynamoDbLocal = DynamoDBEmbedded.create();
    dynamoDb = dynamoDbLocal.dynamoDbClient();
    dynamoDb.createTable(t -> t.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
        .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
        .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S)));
  }

  @AfterAll
  static void stop() {
    dynamoDbLocal.shutdownNow();
  }

  private static DataRecord inProgress(String key, Instant lockExpiry) {
    return new DataRecord(key, DataRecord.Status.INPROGRESS, Instant.now().plus(Duration.ofDays(21)).getEpochSecond(),
        null, null, OptionalLong.of(lockExpiry.toEpochMilli()));
  }

  @Test
  void stockPowertoolsStoreNeverFreesTheLockOfATimedOutTry() {
    String key = "order-" + UUID.randomUUID();
    Instant now = Instant.now();
    store.putRecord(inProgress(key, now.minusSeconds(60)), now.minusSeconds(360));

    DynamoDBPersistenceStore stock = DynamoDBPersistenceStore.builder().withTableName(TABLE).withDynamoDbClient(dynamoDb).build();
    // The lock expired a minute ago, yet 1.15.0 compares its milliseconds with seconds and refuses.
    assertThatThrownBy(() -> stock.putRecord(inProgress(key, now.plusSeconds(300)), now))
        .isInstanceOf(IdempotencyItemAlreadyExistsException.class);
  }

  @Test
  void nextTryTakesOverTheLockOfATimedOutTryAndKnowsItMayHaveBooked() {
    String key = "order-" + UUID.randomUUID();
    Instant now = Instant.now();
    store.putRecord(inProgress(key, now.minusSeconds(60)), now.minusSeconds(360));
    assertThat(store.claimReplacedEarlierTry()).isFalse();

    store.putRecord(inProgress(key, now.plusSeconds(300)), now);

    assertThat(store.claimReplacedEarlierTry()).isTrue();
    assertThat(store.getRecord(key).getInProgressExpiryTimestamp()).hasValue(now.plusSeconds(300).toEpochMilli());
  }

  @Test
  void aClaimIsLockedUntilItsOwnInvocationEndsNotUntilTheEndPowertoolsTookFromAnotherInvocation() {
    String key = "order-" + UUID.randomUUID();
    Instant now = Instant.now();
    Instant ownInvocationEnd = now.plusSeconds(300);
    // Powertools computed the lock from the context registered last: another invocation's, ending in 1 s.
    store.lockingUntil(ownInvocationEnd, () -> {
      store.putRecord(inProgress(key, now.plusSeconds(1)), now);
      return null;
    });

    assertThat(store.getRecord(key).getInProgressExpiryTimestamp()).as("its own end, plus the late-booking hold")
        .hasValue(ownInvocationEnd.plus(LATE_BOOKING_HOLD).toEpochMilli());
    // Two seconds on, that other invocation is over, but this try's call may still be running: no takeover.
    Instant later = now.plusSeconds(2);
    assertThatThrownBy(() -> store.putRecord(inProgress(key, later.plusSeconds(300)), later))
        .isInstanceOf(IdempotencyItemAlreadyExistsException.class);
  }

  /**
   * Review: a redriven message starts a new life (source retention, then the DLQ's), so the record of
   * a booked order must outlive every message that finds it, or a late redrive books the order again.
   */
  @Test
  void aDeliveryThatFindsTheOrderBookedKeepsItsRecordAliveForAsLongAsThatMessageCanComeBack() {
    String soon = "order-" + UUID.randomUUID();
    String later = "order-" + UUID.randomUUID();
    Instant now = Instant.now();
    long farFuture = now.plus(Duration.ofDays(60)).getEpochSecond();
    completed(soon, now.plus(Duration.ofDays(1)).getEpochSecond());
    completed(later, farFuture);

    assertThat(store.getRecord(soon).getStatus()).isEqualTo(DataRecord.Status.COMPLETED);
    store.getRecord(later);

    assertThat(expiration(soon)).isGreaterThanOrEqualTo(now.plus(RECORD_LIFETIME).getEpochSecond());
    assertThat(expiration(later)).as("never shortened").isEqualTo(farFuture);
  }

  private static void completed(String key, long expiration) {
    dynamoDb.putItem(r -> r.tableName(TABLE).item(Map.of(
        "id", AttributeValue.fromS(key), "status", AttributeValue.fromS("COMPLETED"),
        "expiration", AttributeValue.fromN(Long.toString(expiration)), "data", AttributeValue.fromS("{}"))));
  }

  private static long expiration(String key) {
    return Long.parseLong(dynamoDb.getItem(r -> r.tableName(TABLE).key(Map.of("id", AttributeValue.fromS(key))))
        .item().get("expiration").n());
  }

  @Test
  void liveLockIsNotTakenOver() {
    String key = "order-" + UUID.randomUUID();
    Instant now = Instant.now();
    store.putRecord(inProgress(key, now.plusSeconds(300)), now);

    assertThatThrownBy(() -> store.putRecord(inProgress(key, now.plusSeconds(310)), now.plusSeconds(10)))
        .isInstanceOf(IdempotencyItemAlreadyExistsException.class);
  }

  @Test
  void completedOrderIsNotClaimedAgainBeforeItsRecordExpires() {
    String key = "order-" + UUID.randomUUID();
    Instant now = Instant.now();
    store.putRecord(inProgress(key, now.plusSeconds(300)), now);
    store.updateRecord(new DataRecord(key, DataRecord.Status.COMPLETED, now.plus(Duration.ofDays(21)).getEpochSecond(),
        "{\"shipmentId\":\"SHP-1\"}", null));

    assertThatThrownBy(() -> store.putRecord(inProgress(key, now.plusSeconds(4_000)), now.plusSeconds(3_700)))
        .isInstanceOf(IdempotencyItemAlreadyExistsException.class);
    assertThat(store.getRecord(key).getStatus()).isEqualTo(DataRecord.Status.COMPLETED);
  }

  @Test
  void failedTryReleasesItsLockButLeavesItsTrace() {
    String key = "order-" + UUID.randomUUID();
    Instant now = Instant.now();
    store.putRecord(inProgress(key, now.plusSeconds(300)), now);

    store.deleteRecord(key);

    assertThat(store.getRecord(key).getInProgressExpiryTimestamp()).hasValue(0);
    store.putRecord(inProgress(key, now.plusSeconds(310)), now.plusSeconds(10));
    assertThat(store.claimReplacedEarlierTry()).isTrue();
  }

  @Test
  void tryThatOutlivedItsLockDoesNotReleaseTheLockOfTheTryThatTookOver() throws Exception {
    String key = "order-" + UUID.randomUUID();
    Instant now = Instant.now();
    CountDownLatch lateTryClaimed = new CountDownLatch(1);
    CountDownLatch nextTryClaimed = new CountDownLatch(1);
    Thread late = Thread.ofVirtual().start(() -> {
      store.putRecord(inProgress(key, now.minusSeconds(1)), now.minusSeconds(300));
      lateTryClaimed.countDown();
      await(nextTryClaimed);
      store.deleteRecord(key);
    });
    await(lateTryClaimed);
    store.putRecord(inProgress(key, now.plusSeconds(300)), now);
    nextTryClaimed.countDown();
    late.join();

    assertThat(store.getRecord(key).getInProgressExpiryTimestamp()).hasValue(now.plusSeconds(300).toEpochMilli());
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
