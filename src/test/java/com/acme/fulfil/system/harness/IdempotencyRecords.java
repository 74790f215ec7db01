package com.acme.fulfil.system.harness;

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

  /** One record: Powertools' status, and for a completed order the booking it stored. */
  public record Record(String status, Optional<String> orderId, Optional<String> shipmentId) {
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

  private static Record record(Map<String, AttributeValue> item) {
    String status = item.get("status").s();
    AttributeValue data = item.get("data");
    if (data == null) {
      return new Record(status, Optional.empty(), Optional.empty());
    }
    try {
      JsonNode booking = JSON.readTree(data.s());
      return new Record(status, text(booking, "orderId"), text(booking, "shipmentId"));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Optional<String> text(JsonNode node, String field) {
    return Optional.ofNullable(node.get(field)).map(JsonNode::asText);
  }
}
