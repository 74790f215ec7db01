package com.acme.fulfil.booking;

import com.acme.fulfil.partner.PartnerOutcomeUnknownException;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.lambda.powertools.idempotency.IdempotencyConfig;
import software.amazon.lambda.powertools.idempotency.exceptions.IdempotencyItemAlreadyExistsException;
import software.amazon.lambda.powertools.idempotency.exceptions.IdempotencyItemNotFoundException;
import software.amazon.lambda.powertools.idempotency.persistence.BasePersistenceStore;
import software.amazon.lambda.powertools.idempotency.persistence.DataRecord;

/**
 * Powertools' idempotency records in DynamoDB, in the library's table layout ({@code id}, TTL on
 * {@code expiration}), with two changes that exactly-once booking needs.
 *
 * <ol>
 *   <li>The in-progress lock of an invocation that died can be taken over. Powertools 1.15.0 compares
 *       {@code in_progress_expiration}, written in epoch milliseconds, with epoch seconds, so the
 *       comparison is never true and an order whose invocation timed out stays locked until the
 *       record's TTL, for weeks (fixed upstream in 1.16.1, which this registry does not serve).</li>
 *   <li>A failed try releases its lock instead of deleting the record, and a claim that replaces an
 *       earlier record says so: a try that failed (or died) after sending a booking request may have
 *       booked, and the next try must look the order up at the partner before booking again. A try
 *       whose booking went unanswered keeps the lock until the partner can no longer book for that
 *       request (the contract's maximum after it was sent, plus clock skew): a lookup before then
 *       could find nothing and book a second courier.</li>
 * </ol>
 *
 * <p>The claim is remembered per thread because Powertools calls {@link #putRecord} and then the
 * guarded method on the same thread, and each record of a batch runs on a thread of its own.
 */
public final class OrderIdempotencyStore extends BasePersistenceStore {
  static final String KEY = "id";
  static final String EXPIRY = "expiration";
  static final String IN_PROGRESS_EXPIRY = "in_progress_expiration";
  static final String STATUS = "status";
  static final String DATA = "data";

  private static final String CLAIMABLE = "attribute_not_exists(#id) OR #expiry < :now"
      + " OR (#status = :inprogress AND #in_progress_expiry < :now_ms)";
  private static final Map<String, String> CLAIM_NAMES = Map.of(
      "#id", KEY, "#expiry", EXPIRY, "#status", STATUS, "#in_progress_expiry", IN_PROGRESS_EXPIRY);

  private final DynamoDbClient dynamoDb;
  private final String table;
  private final Duration lateBookingHold;
  private final Duration recordLifetime;
  private final ThreadLocal<Claim> claims = new ThreadLocal<>();
  private final ThreadLocal<Instant> invocationEnds = new ThreadLocal<>();
  private boolean prefixSet;

  /** This thread's claim on an order; {@code releaseAt} is when a failed try's lock may be taken over. */
  private record Claim(String key, long lockExpiry, boolean replacedEarlierTry, long releaseAt) {}

  /**
   * @param lateBookingHold how long after a booking request was sent the partner may still book
   *     ({@code TimingBudget.lateBookingHold()}: the contract's maximum plus a clock-skew allowance)
   * @param recordLifetime the idempotency TTL: how long a message carrying an order can still arrive
   */
  public OrderIdempotencyStore(DynamoDbClient dynamoDb, String table, Duration lateBookingHold, Duration recordLifetime) {
    this.dynamoDb = dynamoDb;
    this.table = table;
    this.lateBookingHold = lateBookingHold;
    this.recordLifetime = recordLifetime;
  }

  /**
   * Powertools 1.15.0 calls this on every guarded call and rewrites the shared key prefix in two steps
   * (the function's name, then name + ".book") before it looks at whether it already ran. Records of
   * one batch run side by side, so one of them could hash its order under a half-written or doubled
   * prefix ({@code <fn>#} or {@code <fn>.book.book#}), find no record, and book an order that its
   * producer copy was booking under the real key. Configured once, under a lock, the prefix never
   * changes again and an order's key depends on its order id alone.
   */
  @Override
  public synchronized void configure(IdempotencyConfig config, String functionName) {
    if (!prefixSet) {
      super.configure(config, functionName);
      prefixSet = true;
    }
  }

  /**
   * Runs {@code work} with every claim this thread makes locked until {@code invocationEnd}, the end of
   * the invocation the record belongs to. Powertools takes the lock's end from the Lambda context that
   * was registered last, in a static: another invocation's whenever invocations share a JVM (the local
   * event source mapping, a multi-concurrency environment), whose remaining time may be shorter than
   * this one's partner call. A lock that ends before the call does lets the next try take over, find
   * nothing at the partner yet, and book a second courier.
   */
  public <T> T lockingUntil(Instant invocationEnd, Supplier<T> work) {
    invocationEnds.set(invocationEnd);
    try {
      return work.get();
    } finally {
      invocationEnds.remove();
    }
  }

  /** True when this thread's current claim took over a record an earlier try left behind. */
  public boolean claimReplacedEarlierTry() {
    Claim claim = claims.get();
    return claim != null && claim.replacedEarlierTry();
  }

  @Override
  public DataRecord getRecord(String idempotencyKey) throws IdempotencyItemNotFoundException {
    GetItemResponse response = dynamoDb.getItem(r -> r.tableName(table).key(key(idempotencyKey)).consistentRead(true));
    if (!response.hasItem()) {
      throw new IdempotencyItemNotFoundException(idempotencyKey);
    }
    Map<String, AttributeValue> item = response.item();
    AttributeValue data = item.get(DATA);
    AttributeValue lockExpiry = item.get(IN_PROGRESS_EXPIRY);
    DataRecord record = new DataRecord(idempotencyKey, DataRecord.Status.valueOf(item.get(STATUS).s()),
        Long.parseLong(item.get(EXPIRY).n()), data == null ? null : data.s(), null,
        lockExpiry == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(lockExpiry.n())));
    if (record.getStatus() == DataRecord.Status.COMPLETED) {
      keepAliveForThisDelivery(idempotencyKey);
    }
    return record;
  }

  /**
   * A message that finds its order booked may itself come back later: a redrive gives it a new life in
   * the source queue and then the DLQ, so the record must outlive the message that is here now, not
   * only the first message of the order. Only ever lengthens the record's life.
   */
  private void keepAliveForThisDelivery(String idempotencyKey) {
    long until = Instant.now().plus(recordLifetime).getEpochSecond();
    try {
      dynamoDb.updateItem(r -> r.tableName(table).key(key(idempotencyKey))
          .updateExpression("SET #expiry = :until")
          .conditionExpression("#expiry < :until")
          .expressionAttributeNames(Map.of("#expiry", EXPIRY))
          .expressionAttributeValues(Map.of(":until", n(until))));
    } catch (ConditionalCheckFailedException e) {
      // Already lives at least that long.
    }
  }

  @Override
  public void putRecord(DataRecord record, Instant now) throws IdempotencyItemAlreadyExistsException {
    claims.remove();
    Instant invocationEnd = invocationEnds.get();
    // A try that dies (killed at its timeout) releases nothing: its lock must outlast a booking request
    // it may have sent just before the end, which the partner can still carry out after it.
    long lockExpiry = invocationEnd != null ? invocationEnd.plus(lateBookingHold).toEpochMilli()
        : record.getInProgressExpiryTimestamp().orElseThrow(() -> new IllegalStateException(
            "Idempotency.registerLambdaContext was not called: the order's lock would have no expiry"));
    Map<String, AttributeValue> item = Map.of(
        KEY, s(record.getIdempotencyKey()),
        EXPIRY, n(record.getExpiryTimestamp()),
        STATUS, s(record.getStatus().toString()),
        IN_PROGRESS_EXPIRY, n(lockExpiry));
    PutItemResponse response;
    try {
      response = dynamoDb.putItem(r -> r.tableName(table).item(item)
          .conditionExpression(CLAIMABLE)
          .expressionAttributeNames(CLAIM_NAMES)
          .expressionAttributeValues(Map.of(
              ":now", n(now.getEpochSecond()),
              ":now_ms", n(now.toEpochMilli()),
              ":inprogress", s(DataRecord.Status.INPROGRESS.toString())))
          .returnValues(ReturnValue.ALL_OLD));
    } catch (ConditionalCheckFailedException e) {
      throw new IdempotencyItemAlreadyExistsException("order is already booked or being booked: " + record.getIdempotencyKey(), e);
    }
    claims.set(new Claim(record.getIdempotencyKey(), lockExpiry,
        response.hasAttributes() && !response.attributes().isEmpty(), 0));
  }

  @Override
  public void updateRecord(DataRecord record) {
    claims.remove();
    dynamoDb.updateItem(r -> r.tableName(table).key(key(record.getIdempotencyKey()))
        .updateExpression("SET #data = :data, #expiry = :expiry, #status = :status")
        .expressionAttributeNames(Map.of("#data", DATA, "#expiry", EXPIRY, "#status", STATUS))
        .expressionAttributeValues(Map.of(
            ":data", s(record.getResponseData()),
            ":expiry", n(record.getExpiryTimestamp()),
            ":status", s(record.getStatus().toString()))));
  }

  /** Powertools calls this when the guarded method throws; it hashes the key and calls the method below. */
  @Override
  public void deleteRecord(JsonNode data, Throwable failure) {
    Claim claim = claims.get();
    if (claim != null && failure instanceof PartnerOutcomeUnknownException unknown) {
      claims.set(new Claim(claim.key(), claim.lockExpiry(), claim.replacedEarlierTry(),
          unknown.sentAt().plus(lateBookingHold).toEpochMilli()));
    }
    super.deleteRecord(data, failure);
  }

  /**
   * The record stays, as the trace of a try that may have reached the partner, with its lock released
   * (at once, or when an unanswered booking can no longer be in progress). The condition keeps a try
   * that outlived its lock from releasing the lock of the try that took over.
   */
  @Override
  public void deleteRecord(String idempotencyKey) {
    Claim claim = claims.get();
    claims.remove();
    if (claim == null || !claim.key().equals(idempotencyKey)) {
      return;
    }
    try {
      dynamoDb.updateItem(r -> r.tableName(table).key(key(idempotencyKey))
          .updateExpression("SET #in_progress_expiry = :released")
          .conditionExpression("#status = :inprogress AND #in_progress_expiry = :ours")
          .expressionAttributeNames(Map.of("#in_progress_expiry", IN_PROGRESS_EXPIRY, "#status", STATUS))
          .expressionAttributeValues(Map.of(
              ":released", n(claim.releaseAt()),
              ":inprogress", s(DataRecord.Status.INPROGRESS.toString()),
              ":ours", n(claim.lockExpiry()))));
    } catch (ConditionalCheckFailedException e) {
      // Another try holds the order now; its lock is not ours to release.
    }
  }

  private static Map<String, AttributeValue> key(String idempotencyKey) {
    return Map.of(KEY, s(idempotencyKey));
  }

  private static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  private static AttributeValue n(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }
}
