package com.acme.fulfil.booking;

import static com.acme.fulfil.contract.records.OrderRecordLayout.*;

import com.acme.fulfil.contract.records.OrderRecordLayout;
import com.acme.fulfil.partner.NotBooked;
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
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Each order's record in DynamoDB ({@link OrderRecordLayout}): the claim a try must win before it may call the
 * partner, the booking once made, and the order's story for on-call. DynamoDB evaluates every condition, so no two
 * tries anywhere can both hold an order. A claim lasts until its try's invocation ends plus the late-booking hold:
 * a try killed at its timeout releases nothing, and a booking request it sent just before may still be carried out.
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

  /** @param recordLifetime the record's TTL: how long a message carrying the order can still arrive */
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
   * This try ({@code holder}, its attempt id) holds the order until {@code lockEnd}; no booking request has left.
   * {@code found}: what earlier tries left on the record for this one.
   */
  public record Claim(String orderId, String key, String holder, Instant lockEnd, Found found) implements ClaimResult {}

  /**
   * What the claim found on the record: since when nothing of ours is out at the partner ({@link
   * OrderRecordLayout#NOTHING_BOOKED_AT}), and the message the partner rejected that could not go to the DLQ, with
   * the rejection ({@link OrderRecordLayout#REJECTED_MESSAGE}).
   */
  public record Found(Optional<Instant> nothingBookedAt, Optional<Rejection> rejected) {
    public static final Found NOTHING = new Found(Optional.empty(), Optional.empty());
  }

  /** The partner's rejection of the order as {@code messageId} carried it, as the record's last reason says. */
  public record Rejection(String messageId, String reason) {}

  public record AlreadyBooked(Booking booking) implements ClaimResult {}

  public record HeldElsewhere(Instant until) implements ClaimResult {}

  /** A claim under which a booking request may have left: see {@link OnceOnlyBooking} for how it may end. */
  public record BookingRequestOut(Claim claim) {}

  /** Claims the order for the try {@code attemptId}, which may run until {@code window}'s invocation end. */
  public ClaimResult claim(String orderId, String attemptId, CallWindow window) {
    String key = OrderRecordLayout.keyOf(functionName, orderId);
    Instant now = clock.instant();
    Instant lockEnd = window.invocationEnd().plus(lateBookingHold);
    UpdateItemResponse claimed;
    try {
      claimed = dynamoDb.updateItem(r -> r.tableName(table).key(key(key)).conditionExpression(CLAIMABLE)
          .updateExpression("SET #status = :in_progress, #lock = :lock, #holder = :holder, #expiry = :expiry, #try_at = :now,"
              + " #outcome = :claimed ADD #tries :one REMOVE #reason, #booking, #dead_letter, #rejected")
          .expressionAttributeNames(Map.ofEntries(Map.entry("#id", KEY), Map.entry("#expiry", EXPIRY),
              Map.entry("#rejected", REJECTED_MESSAGE),
              Map.entry("#status", STATUS), Map.entry("#lock", LOCK_EXPIRY), Map.entry("#holder", HOLDER),
              Map.entry("#try_at", LAST_TRY_AT), Map.entry("#outcome", LAST_OUTCOME), Map.entry("#tries", TRIES),
              Map.entry("#reason", LAST_REASON), Map.entry("#booking", BOOKING), Map.entry("#dead_letter", DEAD_LETTER)))
          .expressionAttributeValues(Map.of(":now_s", n(now.getEpochSecond()), ":now_ms", n(now.toEpochMilli()),
              ":now", s(now.toString()), ":in_progress", s(IN_PROGRESS), ":claimed", s(CLAIMED), ":one", n(1),
              ":lock", n(lockEnd.toEpochMilli()), ":holder", s(attemptId),
              ":expiry", n(now.plus(recordLifetime).getEpochSecond())))
          .returnValues(ReturnValue.ALL_OLD)
          .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
      return new Claim(orderId, key, attemptId, lockEnd, found(claimed.attributes()));
    } catch (ConditionalCheckFailedException e) {
      // Not every DynamoDB implementation returns the item with the failure: read it then.
      Map<String, AttributeValue> held = e.hasItem() && !e.item().isEmpty() ? e.item() : read(key);
      if (COMPLETED.equals(text(held, STATUS))) {
        keepAliveForThisDelivery(key, now, window.usable());
        return new AlreadyBooked(booking(text(held, BOOKING)));
      }
      if (IN_PROGRESS.equals(text(held, STATUS)) && attemptId.equals(text(held, HOLDER))) {
        // This try's own claim: the write was applied, its answer lost, and the SDK sent it again.
        return new Claim(orderId, key, attemptId, lockEnd, Found.NOTHING);
      }
      return new HeldElsewhere(held.containsKey(LOCK_EXPIRY)
          ? Instant.ofEpochMilli(Long.parseLong(held.get(LOCK_EXPIRY).n())) : now);
    } catch (SdkException unanswered) {
      // DynamoDB may have applied the claim and its answer been lost, past the SDK's retries: nothing was sent under
      // it, so free it if it is this try's, rather than leave the order locked for the invocation and the hold.
      try {
        end(new Claim(orderId, key, attemptId, lockEnd, Found.NOTHING), Instant.EPOCH, Optional.empty(), CLAIM_UNCONFIRMED,
            "the claim's answer was lost: " + Failures.describe(unanswered));
      } catch (SdkException stillFailing) {
        unanswered.addSuppressed(stillFailing);
      }
      throw unanswered;
    }
  }

  /** What an earlier try left on the record, read from the record as the claim replaced it. */
  private static Found found(Map<String, AttributeValue> before) {
    String rejected = text(before, REJECTED_MESSAGE);
    String reason = text(before, LAST_REASON);
    return new Found(Optional.ofNullable(text(before, NOTHING_BOOKED_AT)).map(Instant::parse),
        PARTNER_REJECTED.equals(text(before, LAST_OUTCOME)) && rejected != null && reason != null
            ? Optional.of(new Rejection(rejected, reason)) : Optional.empty());
  }

  /**
   * Writes down, while the claim still holds, that a booking request is about to leave, so on-call can see when.
   * Empty if the claim no longer holds (the try outlived its lock and another took over): then nothing may be sent.
   */
  public Optional<BookingRequestOut> beforeBookingRequest(Claim claim) {
    try {
      dynamoDb.updateItem(r -> r.tableName(table).key(key(claim.key())).conditionExpression(HELD_BY_THIS_CLAIM)
          .updateExpression("SET #post_at = :now REMOVE #nothing_booked")
          .expressionAttributeNames(Map.of("#status", STATUS, "#holder", HOLDER, "#post_at", LAST_POST_AT,
              "#nothing_booked", NOTHING_BOOKED_AT))
          .expressionAttributeValues(Map.of(":in_progress", s(IN_PROGRESS), ":ours", s(claim.holder()),
              ":now", s(clock.instant().toString()))));
      return Optional.of(new BookingRequestOut(claim));
    } catch (ConditionalCheckFailedException e) {
      return Optional.empty();
    }
  }

  /** Records the booking, unconditionally: the courier is booked whatever befell the claim meanwhile. */
  public void complete(Claim claim, Booking booking) {
    Instant now = clock.instant();
    dynamoDb.updateItem(r -> r.tableName(table).key(key(claim.key()))
        .updateExpression("SET #status = :completed, #booking = :booking, #expiry = :expiry, #outcome = :outcome"
            + " REMOVE #reason, #lock, #holder, #nothing_booked")
        .expressionAttributeNames(Map.of("#status", STATUS, "#booking", BOOKING, "#expiry", EXPIRY,
            "#outcome", LAST_OUTCOME, "#reason", LAST_REASON, "#lock", LOCK_EXPIRY, "#holder", HOLDER,
            "#nothing_booked", NOTHING_BOOKED_AT))
        .expressionAttributeValues(Map.of(":completed", s(COMPLETED), ":booking", s(json(booking)), ":expiry",
            n(now.plus(recordLifetime).getEpochSecond()), ":outcome", s(booking.source().name().toLowerCase()))));
  }

  /** Frees the order at once after a try that sent no booking request; the record stays, as the try's trace. */
  public void release(Claim claim, String outcome, String reason) {
    end(claim, Instant.EPOCH, Optional.empty(), outcome, reason);
  }

  /** {@link #release(Claim, String, String)} after a lookup that found the order unbooked: nothing of ours is out. */
  public void releaseUnbooked(Claim claim, String outcome, String reason) {
    end(claim, Instant.EPOCH, Optional.of(clock.instant()), outcome, reason);
  }

  /**
   * Frees the order at once after a booking request, on the partner's proof that it booked nothing; its lookup had
   * found nothing, so nothing of ours is out.
   */
  public void release(BookingRequestOut request, NotBooked proof, String outcome, String reason) {
    end(request.claim(), Instant.EPOCH, Optional.of(clock.instant()), outcome, reason + " (" + proof + ")");
  }

  /**
   * Holds the order, and returns until when: the late-booking hold after now, the latest moment the partner can have
   * received the request (the try has stopped waiting, and its socket no longer sends).
   */
  public Instant hold(BookingRequestOut request, String outcome, String reason) {
    Instant lockEnd = clock.instant().plus(lateBookingHold);
    end(request.claim(), lockEnd, Optional.empty(), outcome, reason);
    return lockEnd;
  }

  /**
   * Names the DLQ message that now carries the order the partner rejected, while the record's last try still ends
   * with that rejection: after a later try the name stays unwritten, and {@code fulfil-ops dlq} says redrive, not drop.
   */
  public void deadLettered(String orderId, String deadLetterMessageId) {
    try {
      dynamoDb.updateItem(r -> r.tableName(table).key(key(OrderRecordLayout.keyOf(functionName, orderId)))
          .conditionExpression("#outcome = :rejected").updateExpression("SET #dead_letter = :message")
          .expressionAttributeNames(Map.of("#outcome", LAST_OUTCOME, "#dead_letter", DEAD_LETTER))
          .expressionAttributeValues(Map.of(":rejected", s(PARTNER_REJECTED), ":message", s(deadLetterMessageId))));
    } catch (ConditionalCheckFailedException e) {
      // Another try has claimed the order since: the message's fate is no longer the record's to tell.
    }
  }

  /**
   * Names the source queue's message the partner rejected, which could not be sent to the DLQ and returns, while the
   * record's last try still ends with that rejection: its next receive goes to the DLQ without a partner call.
   */
  public void rejectedMessageReturned(String orderId, String messageId) {
    try {
      dynamoDb.updateItem(r -> r.tableName(table).key(key(OrderRecordLayout.keyOf(functionName, orderId)))
          .conditionExpression("#outcome = :rejected").updateExpression("SET #rejected = :message")
          .expressionAttributeNames(Map.of("#outcome", LAST_OUTCOME, "#rejected", REJECTED_MESSAGE))
          .expressionAttributeValues(Map.of(":rejected", s(PARTNER_REJECTED), ":message", s(messageId))));
    } catch (ConditionalCheckFailedException e) {
      // Another try has claimed the order since: it asks the partner again, as any try does.
    }
  }

  /**
   * Only this claim's own lock is touched: a try that outlived it must not free the try that took over. With {@code
   * nothingBooked}, the record says from when nothing of ours was out ({@link OrderRecordLayout#NOTHING_BOOKED_AT}).
   */
  private void end(Claim claim, Instant lockEnd, Optional<Instant> nothingBooked, String outcome, String reason) {
    Map<String, String> names = new HashMap<>(Map.of("#status", STATUS, "#holder", HOLDER, "#lock", LOCK_EXPIRY,
        "#outcome", LAST_OUTCOME, "#reason", LAST_REASON));
    Map<String, AttributeValue> values = new HashMap<>(Map.of(":in_progress", s(IN_PROGRESS), ":ours", s(claim.holder()),
        ":lock_end", n(lockEnd.toEpochMilli()), ":outcome", s(outcome), ":reason", s(reason)));
    nothingBooked.ifPresent(at -> {
      names.put("#nothing_booked", NOTHING_BOOKED_AT);
      values.put(":nothing_booked", s(at.toString()));
    });
    try {
      dynamoDb.updateItem(r -> r.tableName(table).key(key(claim.key())).conditionExpression(HELD_BY_THIS_CLAIM)
          .updateExpression("SET #lock = :lock_end, #outcome = :outcome, #reason = :reason"
              + (nothingBooked.isPresent() ? ", #nothing_booked = :nothing_booked" : ""))
          .expressionAttributeNames(names).expressionAttributeValues(values));
    } catch (ConditionalCheckFailedException e) {
      // Another try holds the order now; its lock and its story are not ours to change.
    }
  }

  /**
   * A redrive gives a message that found its order booked a new life, so the record must outlive this message, not
   * only the order's first. Only ever lengthens; best effort within the try's time, since a throttled table must
   * not hold the invocation past its timeout.
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
          .updateExpression("SET #expiry = :until").conditionExpression("#expiry < :until")
          .expressionAttributeNames(Map.of("#expiry", EXPIRY)).expressionAttributeValues(Map.of(":until", n(until))));
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
