package com.acme.fulfil.system.harness;

import com.acme.fulfil.contract.records.OrderRecordLayout;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** What the function wrote to its idempotency table: one record per order it has claimed. */
public final class IdempotencyRecords {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final DynamoDbClient dynamoDb;
  private final String table;

  /**
   * One order's record: its status, for a completed order the booking it stored, and its story (how
   * many tries claimed it, what the last came to and why, when a booking request last left).
   */
  public record Record(String status, Optional<String> orderId, Optional<String> shipmentId, int tries,
      Optional<String> lastOutcome, Optional<String> lastReason, Optional<String> lastPostAt) {
    public boolean completed() {
      return "COMPLETED".equals(status);
    }
  }

  public IdempotencyRecords(DynamoDbClient dynamoDb, String table) {
    this.dynamoDb = dynamoDb;
    this.table = table;
  }

  public List<Record> all() {
    return dynamoDb.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().stream()
        .map(IdempotencyRecords::record)
        .toList();
  }

  /** The completed record of {@code orderId}, if there is one. */
  public Optional<Record> completed(String orderId) {
    return all().stream().filter(Record::completed).filter(r -> r.orderId().equals(Optional.of(orderId))).findFirst();
  }

  /** The record of {@code orderId} under its key, whatever its status. */
  public Optional<Record> of(String functionName, String orderId) {
    Map<String, AttributeValue> item = dynamoDb.getItem(r -> r.tableName(table).consistentRead(true)
        .key(Map.of(OrderRecordLayout.KEY, AttributeValue.fromS(OrderRecordLayout.keyOf(functionName, orderId))))).item();
    return item == null || item.isEmpty() ? Optional.empty() : Optional.of(record(item));
  }

  /**
   * Deletes the record of {@code orderId}, as its TTL, a restore from an older backup or a person at
   * the console would: the order's story starts again from nothing.
   */
  public void forget(String functionName, String orderId) {
    dynamoDb.deleteItem(r -> r.tableName(table)
        .key(Map.of(OrderRecordLayout.KEY, AttributeValue.fromS(OrderRecordLayout.keyOf(functionName, orderId)))));
  }

  private static Record record(Map<String, AttributeValue> item) {
    String status = item.get(OrderRecordLayout.STATUS).s();
    AttributeValue data = item.get(OrderRecordLayout.BOOKING);
    JsonNode booking = data == null ? JSON.nullNode() : readTree(data.s());
    AttributeValue tries = item.get(OrderRecordLayout.TRIES);
    return new Record(status, text(booking, "orderId"), text(booking, "shipmentId"),
        tries == null ? 0 : Integer.parseInt(tries.n()), string(item, OrderRecordLayout.LAST_OUTCOME),
        string(item, OrderRecordLayout.LAST_REASON), string(item, OrderRecordLayout.LAST_POST_AT));
  }

  private static JsonNode readTree(String json) {
    try {
      return JSON.readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Optional<String> string(Map<String, AttributeValue> item, String name) {
    return Optional.ofNullable(item.get(name)).map(AttributeValue::s);
  }

  private static Optional<String> text(JsonNode node, String field) {
    return Optional.ofNullable(node.get(field)).map(JsonNode::asText);
  }
}
