package com.acme.fulfil.ops;

import static com.acme.fulfil.contract.records.OrderRecordLayout.BOOKING;
import static com.acme.fulfil.contract.records.OrderRecordLayout.COMPLETED;
import static com.acme.fulfil.contract.records.OrderRecordLayout.DEAD_LETTER;
import static com.acme.fulfil.contract.records.OrderRecordLayout.EXPIRY;
import static com.acme.fulfil.contract.records.OrderRecordLayout.KEY;
import static com.acme.fulfil.contract.records.OrderRecordLayout.LAST_OUTCOME;
import static com.acme.fulfil.contract.records.OrderRecordLayout.LAST_POST_AT;
import static com.acme.fulfil.contract.records.OrderRecordLayout.LAST_REASON;
import static com.acme.fulfil.contract.records.OrderRecordLayout.LAST_TRY_AT;
import static com.acme.fulfil.contract.records.OrderRecordLayout.LOCK_EXPIRY;
import static com.acme.fulfil.contract.records.OrderRecordLayout.STATUS;
import static com.acme.fulfil.contract.records.OrderRecordLayout.TRIES;

import com.acme.fulfil.contract.records.OrderRecordLayout;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An order's record as the function left it (contract/OrderRecordLayout), read for on-call.
 *
 * @param deadLetter the DLQ message the function sent the order to on the partner's rejection, while no try has claimed it since
 */
record OrderRecord(String key, String status, int tries, Optional<Instant> lastTryAt, Optional<String> lastOutcome,
    Optional<String> lastReason, Optional<Instant> lastPostAt, Optional<Instant> heldUntil, Instant expiresAt,
    Optional<JsonNode> booking, Optional<String> deadLetter) {

  private static final ObjectMapper JSON = new ObjectMapper();

  boolean booked() {
    return COMPLETED.equals(status);
  }

  /** Whether a try holds the order at {@code now}: no other try may book it until then. */
  boolean heldAt(Instant now) {
    return !booked() && heldUntil.filter(now::isBefore).isPresent();
  }

  /**
   * The record's state in on-call's words. The function leaves a record it did not book {@code INPROGRESS}
   * with its lock expired (a refused or failed try), which is no try running: only the lock says whether one is.
   */
  String state(Instant now) {
    return booked() ? "booked" : heldAt(now) ? "held by a try" : "not booked, no try running";
  }

  static Optional<OrderRecord> read(Stack stack, String orderId) {
    String key = OrderRecordLayout.keyOf(stack.functionName(), orderId);
    Map<String, AttributeValue> item = stack.aws().dynamoDb()
        .getItem(r -> r.tableName(stack.table()).consistentRead(true).key(Map.of(KEY, AttributeValue.fromS(key)))).item();
    return item == null || item.isEmpty() ? Optional.empty() : Optional.of(of(key, item));
  }

  /** The record as DynamoDB holds it under {@code key}. */
  static OrderRecord of(String key, Map<String, AttributeValue> item) {
    return new OrderRecord(key, text(item, STATUS).orElse("?"),
        number(item, TRIES).map(Long::intValue).orElse(0),
        text(item, LAST_TRY_AT).map(Instant::parse), text(item, LAST_OUTCOME), text(item, LAST_REASON),
        text(item, LAST_POST_AT).map(Instant::parse), number(item, LOCK_EXPIRY).map(Instant::ofEpochMilli),
        Instant.ofEpochSecond(number(item, EXPIRY).orElse(0L)), text(item, BOOKING).map(OrderRecord::json),
        text(item, DEAD_LETTER));
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (JsonProcessingException e) {
      return JSON.getNodeFactory().textNode(text);
    }
  }

  private static Optional<String> text(Map<String, AttributeValue> item, String name) {
    return Optional.ofNullable(item.get(name)).map(AttributeValue::s);
  }

  private static Optional<Long> number(Map<String, AttributeValue> item, String name) {
    return Optional.ofNullable(item.get(name)).map(AttributeValue::n).map(Long::parseLong);
  }
}
