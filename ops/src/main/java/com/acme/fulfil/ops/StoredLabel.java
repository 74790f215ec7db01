package com.acme.fulfil.ops;

import static com.acme.fulfil.contract.OrderRecordLayout.KEY;

import com.acme.fulfil.contract.DeadLetterAttributes;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The label the function kept in its table for a DLQ message that had no room for it (the producer's
 * attributes took SQS's ten, or the 256 KiB, or a label's name): {@code DeadLetterAttributes}' values.
 */
final class StoredLabel {
  private StoredLabel() {}

  /** The label of DLQ message {@code messageId}, if the function stored one. */
  static Optional<Map<String, String>> read(Stack stack, String messageId) {
    String key = DeadLetterAttributes.storedLabelKey(stack.functionName(), messageId);
    Map<String, AttributeValue> item = stack.aws().dynamoDb()
        .getItem(r -> r.tableName(stack.table()).consistentRead(true).key(Map.of(KEY, AttributeValue.fromS(key)))).item();
    if (item == null || item.isEmpty()) {
      return Optional.empty();
    }
    Map<String, String> label = new HashMap<>();
    DeadLetterAttributes.ALL.forEach(name -> Optional.ofNullable(item.get(name)).map(AttributeValue::s)
        .ifPresent(value -> label.put(name, value)));
    return Optional.of(label);
  }
}
