package com.acme.fulfil.order;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The broken rules of one message, collected rather than thrown so that on-call sees all of them at once. Each
 * check returns the field's value, or null once it has recorded why there is none.
 */
final class Violations {
  private final List<String> messages = new ArrayList<>();

  /** A field the contract requires: absent and JSON null are both missing. */
  <T> T required(JsonNode field, String path, Function<JsonNode, T> convert, String rule) {
    if (field == null || field.isNull()) {
      messages.add(path + " is required");
      return null;
    }
    return check(field, path, convert, rule);
  }

  /** A field the producer may leave out or set to JSON null; null then, without a violation. */
  <T> T optional(JsonNode field, String path, Function<JsonNode, T> convert, String rule) {
    return field == null || field.isNull() ? null : check(field, path, convert, rule);
  }

  /** A value that is present; {@code convert} answers null when it breaks {@code rule}. */
  <T> T check(JsonNode value, String path, Function<JsonNode, T> convert, String rule) {
    T converted = convert.apply(value);
    if (converted == null) {
      messages.add(path + " must be " + rule);
    }
    return converted;
  }

  /** How many violations so far; a part of the message is usable when this did not grow. */
  int count() {
    return messages.size();
  }

  String reason() {
    return String.join("; ", messages);
  }
}
