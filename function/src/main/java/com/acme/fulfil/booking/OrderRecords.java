package com.acme.fulfil.booking;

import static com.acme.fulfil.contract.OrderRecordLayout.*;

import com.acme.fulfil.partner.NotBooked;
import com.acme.fulfil.contract.OrderRecordLayout;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * Each order's record in DynamoDB ({@link OrderRecordLayout}): the claim a try must win before it may
 * call the partner, the booking once made, and the order's story for on-call (tries, the last outcome
 * and why, when a booking request last left). Every condition is DynamoDB's to evaluate, so two tries
 * anywhere, in one process or in two, cannot both hold an order.
 *
 * <p>A claim holds the order until its try's invocation ends plus the late-booking hold (the partner's
 * contractual maximum after a request plus clock skew): a try killed at its timeout releases nothing,
 * and a booking request it sent just before may still be carried out. A try that fails before any
 * booking request releases its claim at once; after one, only a proof that nothing was booked
 * ({@link NotBooked}) frees the order, and every other ending holds it until the partner can no
 * longer be booking.
 */
public final class OrderRecords {
  private static final Logger LOG = LoggerFactory.getLogger(OrderRecords.class);
  private static final String CLAIMABLE = "attribute_not_exists(#id) OR #expiry < :now_s"
      + " OR (#status = :in_progress AND #lock < :now_ms)";
  // The holder, not the lock's end, names a claim: two tries can reach the same lock end to the
  // millisecond, and a record deleted under one try can be claimed afresh by another.
  private static final String HELD_BY_THIS_CLAIM = "#status = :in_progress AND #holder = :ours";

  private final DynamoDbClient dynamoDb;
  private final String table;
  private final String functionName;
  private final Duration lateBookingHold;
  private final Duration recordLifetime;
  private final ObjectMapper json;
  private final Clock clock;

  /**
   * @param functionName the Lambda function's name, the first part of every key
   * @param lateBookingHold {@code TimingBudget.lateBookingHold()}
   * @param recordLifetime the record's TTL: how long a message carrying the order can still arrive
   */
  public OrderRecords(DynamoDbClient dynamoDb, String table, String functionName, Duration lateBookingHold,
      Duration recordLifetime, ObjectMapper json, Clock clock) {
    this.dynamoDb = dynamoDb;
    this.table = table;
    this.functionName = functionName;
    this.lateBookingHold = lateBookingHold;
    this.recordLifetime = recordLifetime;
    this.json = json;
    this.clock = clock;
  }

  /** What a try found when it went to claim its order. */
  public sealed interface ClaimResult {}

  /**
   * This try ({@code holder}, its attempt id) holds the order until {@code lockEnd}, and has sent no
   * booking request under the claim: {@link #release(Claim, String, String)} frees the order at once.
   */
  public record Claim(String orderId, String key, String holder, Instant lockEnd) implements ClaimResult {}

  /** The order is booked: nothing to send. */
  public record AlreadyBooked(Booking booking) implements ClaimResult {}

  /** Another try holds the order until {@code until}. */
  public record HeldElsewhere(Instant until) implements ClaimResult {}

  /**
   * A claim under which a booking request may have left. It ends in one of two ways only: freed on a
   * proof that the request booked nothing, or held until the partner can no longer be booking.
   */
  public record BookingRequestOut(Claim claim) {}

  /** Claims the order for the try {@code attemptId}, which may run until {@code window}'s invocation end. */
  public ClaimResult claim(String orderId, String attemptId, CallWindow window) {
    String key = OrderRecordLayout.keyOf(functionName, orderId);
    Instant now = clock.instant();
    Instant lockEnd = window.invocationEnd().plus(lateBookingHold);
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":now_s", n(now.getEpochSecond()));
    values.put(":now_ms", n(now.toEpochMilli()));
    values.put(":in_progress", s(IN_PROGRESS));
    values.put(":lock", n(lockEnd.toEpochMilli()));
    values.put(":holder", s(attemptId));
    values.put(":expiry", n(now.plus(recordLifetime).getEpochSecond()));
    values.put(":now", s(now.toString()));
    values.put(":claimed", s(CLAIMED));
    values.put(":one", n(1));
    try {
      dynamoDb.updateItem(r -> r.tableName(table).key(key(key))
          .conditionExpression(CLAIMABLE)
          .updateExpression("SET #status = :in_progress, #lock = :lock, #holder = :holder, #expiry = :expiry, #try_at = :now,"
              + " #outcome = :claimed ADD #tries :one REMOVE #reason, #booking, #dead_letter")
          .expressionAttributeNames(Map.ofEntries(Map.entry("#id", KEY), Map.entry("#expiry", EXPIRY),
              Map.entry("#status", STATUS), Map.entry("#lock", LOCK_EXPIRY), Map.entry("#holder", HOLDER),
              Map.entry("#try_at", LAST_TRY_AT), Map.entry("#outcome", LAST_OUTCOME), Map.entry("#tries", TRIES),
              Map.entry("#reason", LAST_REASON), Map.entry("#booking", BOOKING), Map.entry("#dead_letter", DEAD_LETTER)))
          .expressionAttributeValues(values)
          .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
      return new Claim(orderId, key, attemptId, lockEnd);
    } catch (ConditionalCheckFailedException e) {
      // Not every DynamoDB implementation returns the item with the failure: read it then.
      Map<String, AttributeValue> held = e.hasItem() && !e.item().isEmpty() ? e.item() : read(key);
      if (COMPLETED.equals(text(held, STATUS))) {
        keepAliveForThisDelivery(key, now, window.usable());
        return new AlreadyBooked(booking(text(held, BOOKING)));
      }
      if (IN_PROGRESS.equals(text(held, STATUS)) && attemptId.equals(text(held, HOLDER))) {
        // This try's own claim: the write was applied, its answer lost, and the SDK sent it again.
        return new Claim(orderId, key, attemptId, lockEnd);
      }
      return new HeldElsewhere(held.containsKey(LOCK_EXPIRY)
          ? Instant.ofEpochMilli(Long.parseLong(held.get(LOCK_EXPIRY).n())) : now);
    }
  }

  /**
   * Writes down, while the claim still holds, that a booking request is about to leave: a try that
   * dies after this line may have booked, and on-call can see when. Empty if the claim no longer holds
   * (the try outlived its lock and another took the order over): then nothing may be sent.
   */
  public Optional<BookingRequestOut> beforeBookingRequest(Claim claim) {
    try {
      dynamoDb.updateItem(r -> r.tableName(table).key(key(claim.key()))
          .conditionExpression(HELD_BY_THIS_CLAIM)
          .updateExpression("SET #post_at = :now")
          .expressionAttributeNames(Map.of("#status", STATUS, "#holder", HOLDER, "#post_at", LAST_POST_AT))
          .expressionAttributeValues(Map.of(":in_progress", s(IN_PROGRESS), ":ours", s(claim.holder()),
              ":now", s(clock.instant().toString()))));
      return Optional.of(new BookingRequestOut(claim));
    } catch (ConditionalCheckFailedException e) {
      return Optional.empty();
    }
  }

  /**
   * Records the booking. Unconditional on purpose: the courier is booked whatever happened to the
   * claim meanwhile, and the record must say so to every later delivery.
   */
  public void complete(Claim claim, Booking booking) {
    Instant now = clock.instant();
    dynamoDb.updateItem(r -> r.tableName(table).key(key(claim.key()))
        .updateExpression("SET #status = :completed, #booking = :booking, #expiry = :expiry, #outcome = :outcome"
            + " REMOVE #reason, #lock, #holder")
        .expressionAttributeNames(Map.of("#status", STATUS, "#booking", BOOKING, "#expiry", EXPIRY,
            "#outcome", LAST_OUTCOME, "#reason", LAST_REASON, "#lock", LOCK_EXPIRY, "#holder", HOLDER))
        .expressionAttributeValues(Map.of(":completed", s(COMPLETED), ":booking", s(json(booking)),
            ":expiry", n(now.plus(recordLifetime).getEpochSecond()),
            ":outcome", s(booking.source().name().toLowerCase()))));
  }

  /**
   * Ends a failed try's claim under which no booking request left, saying why: the order is free at
   * once. The record stays, as the trace of the try.
   *
   * @param outcome a short, stable name for the failure ({@code lookup_failed}, {@code no_time_to_book}...)
   */
  public void release(Claim claim, String outcome, String reason) {
    end(claim, Instant.EPOCH, outcome, reason);
  }

  /** Frees the order at once after a booking request, on the partner's proof that it booked nothing. */
  public void release(BookingRequestOut request, NotBooked proof, String outcome, String reason) {
    end(request.claim(), Instant.EPOCH, outcome, reason + " (" + proof + ")");
  }

  /**
   * Keeps the order locked after a booking request whose outcome nothing proves, until the partner can
   * no longer carry it out: the late-booking hold after now, the latest moment the partner can have
   * received the request (the try has stopped waiting, and its socket no longer sends).
   *
   * @return when the order's lock ends
   */
  public Instant hold(BookingRequestOut request, String outcome, String reason) {
    Instant lockEnd = clock.instant().plus(lateBookingHold);
    end(request.claim(), lockEnd, outcome, reason);
    return lockEnd;
  }

  /**
   * Names the DLQ message that now carries the order the partner rejected, while the record's last try
   * still ends with that rejection: a try since then (another message of the order) leaves the name
   * unwritten, and {@code fulfil-ops dlq} then says redrive rather than drop.
   */
  public void deadLettered(String orderId, String deadLetterMessageId) {
    try {
      dynamoDb.updateItem(r -> r.tableName(table).key(key(OrderRecordLayout.keyOf(functionName, orderId)))
          .conditionExpression("#outcome = :rejected")
          .updateExpression("SET #dead_letter = :message")
          .expressionAttributeNames(Map.of("#outcome", LAST_OUTCOME, "#dead_letter", DEAD_LETTER))
          .expressionAttributeValues(Map.of(":rejected", s(PARTNER_REJECTED), ":message", s(deadLetterMessageId))));
    } catch (ConditionalCheckFailedException e) {
      // Another try has claimed the order since: the message's fate is no longer the record's to tell.
    }
  }

  /** Only this claim's own lock is touched: a try that outlived it must not free the try that took over. */
  private void end(Claim claim, Instant lockEnd, String outcome, String reason) {
    try {
      dynamoDb.updateItem(r -> r.tableName(table).key(key(claim.key()))
          .conditionExpression(HELD_BY_THIS_CLAIM)
          .updateExpression("SET #lock = :lock_end, #outcome = :outcome, #reason = :reason")
          .expressionAttributeNames(Map.of("#status", STATUS, "#holder", HOLDER, "#lock", LOCK_EXPIRY,
              "#outcome", LAST_OUTCOME, "#reason", LAST_REASON))
          .expressionAttributeValues(Map.of(":in_progress", s(IN_PROGRESS), ":ours", s(claim.holder()),
              ":lock_end", n(lockEnd.toEpochMilli()), ":outcome", s(outcome), ":reason", s(reason))));
    } catch (ConditionalCheckFailedException e) {
      // Another try holds the order now; its lock and its story are not ours to change.
    }
  }

  /**
   * A message that finds its order booked may itself come back later: a redrive gives it a new life in
   * the source queue and then the DLQ, so the record must outlive the message that is here now, not
   * only the first message of the order. Only ever lengthens the record's life. Best effort, and within
   * the time the try has left: a throttled table must not hold the invocation past its timeout.
   */
  private void keepAliveForThisDelivery(String key, Instant now, Duration within) {
    if (!within.isPositive()) {
      LOG.warn("no time left to lengthen the booked order's record life; the duplicate is done all the same");
      return;
    }
    long until = now.plus(recordLifetime).getEpochSecond();
    try {
      dynamoDb.updateItem(r -> r.tableName(table).key(key(key))
          .overrideConfiguration(o -> o.apiCallTimeout(within))
          .updateExpression("SET #expiry = :until")
          .conditionExpression("#expiry < :until")
          .expressionAttributeNames(Map.of("#expiry", EXPIRY))
          .expressionAttributeValues(Map.of(":until", n(until))));
    } catch (ConditionalCheckFailedException e) {
      // Already lives at least that long.
    } catch (SdkException e) {
      // The order is booked whatever this write does: turning the duplicate into a retry would only
      // burn its receives. The record still lives its full TTL from its booking or last keep-alive.
      LOG.warn("could not lengthen the booked order's record life ({}); the duplicate is done all the same",
          Failures.describe(e));
    }
  }

  private Map<String, AttributeValue> read(String key) {
    return dynamoDb.getItem(r -> r.tableName(table).key(key(key)).consistentRead(true)).item();
  }

  private String json(Booking booking) {
    try {
      return json.writeValueAsString(booking);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise the booking", e);
    }
  }

  private Booking booking(String data) {
    try {
      return json.readValue(data, Booking.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new IllegalStateException("the order's record holds a booking that cannot be read", e);
    }
  }

  private static String text(Map<String, AttributeValue> item, String name) {
    AttributeValue value = item.get(name);
    return value == null ? null : value.s();
  }

  private static Map<String, AttributeValue> key(String key) {
    return Map.of(KEY, s(key));
  }

  private static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  private static AttributeValue n(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }
}
