package com.acme.fulfil.queue;

import static com.acme.fulfil.contract.OrderRecordLayout.EXPIRY;
import static com.acme.fulfil.contract.OrderRecordLayout.KEY;

import com.acme.fulfil.contract.DeadLetterAttributes;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Keeps the label of a dead letter that had no room for it in the function's table, under
 * {@link DeadLetterAttributes#storedLabelKey}, for as long as a record lives: longer than the DLQ keeps
 * the message. {@code fulfil-ops dlq} reads it there.
 */
public final class StoredLabels {
  private final Supplier<DynamoDbClient> dynamoDb;
  private final String table;
  private final String functionName;
  private final Duration lifetime;
  private final Clock clock;

  public StoredLabels(Supplier<DynamoDbClient> dynamoDb, String table, String functionName, Duration lifetime, Clock clock) {
    this.dynamoDb = dynamoDb;
    this.table = table;
    this.functionName = functionName;
    this.lifetime = lifetime;
    this.clock = clock;
  }

  /** Writes the label of DLQ message {@code deadLetterMessageId}; throws the SDK's exception if DynamoDB refuses. */
  void store(String deadLetterMessageId, DeadLetterLabel label) {
    Map<String, String> names = new HashMap<>();
    Map<String, AttributeValue> values = new HashMap<>();
    StringBuilder update = new StringBuilder("SET #expiry = :expiry");
    names.put("#expiry", EXPIRY);
    values.put(":expiry", AttributeValue.fromN(Long.toString(clock.instant().plus(lifetime).getEpochSecond())));
    int i = 0;
    for (Map.Entry<String, String> value : label.values().entrySet()) {
      names.put("#a" + i, value.getKey());
      values.put(":a" + i, AttributeValue.fromS(value.getValue()));
      update.append(", #a").append(i).append(" = :a").append(i);
      i++;
    }
    // UpdateItem, not PutItem: the function's role writes its records with UpdateItem alone.
    dynamoDb.get().updateItem(r -> r.tableName(table)
        .key(Map.of(KEY, AttributeValue.fromS(DeadLetterAttributes.storedLabelKey(functionName, deadLetterMessageId))))
        .updateExpression(update.toString()).expressionAttributeNames(names).expressionAttributeValues(values));
  }
}
