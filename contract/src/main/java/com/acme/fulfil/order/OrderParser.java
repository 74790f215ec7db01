package com.acme.fulfil.order;

import com.acme.fulfil.contract.sqs.SqsLimits;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Turns an SQS message body into an order, or into the reasons it breaks the contract (docs/order-message.md).
 * Unknown fields are ignored, so a newer producer can add some. Reasons name field paths and rules, never values:
 * they are logged, and the values include the customer's address. Immutable, so one instance serves every thread.
 */
public final class OrderParser {

  private static final Pattern COUNTRY = Pattern.compile("[A-Z]{2}");
  private static final int MAX_ADDRESS_CHARACTERS = 200;
  private static final int MAX_PARCELS = 50;
  private static final int MAX_WEIGHT_GRAMS = 70_000;

  private final ObjectReader reader;

  public OrderParser(ObjectMapper mapper) {
    // Trailing content and duplicate keys make a body ambiguous (which order_id is the key?), so they are
    // malformed JSON here rather than silently resolved.
    this.reader = mapper.reader()
        .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
  }

  public ParsedOrder parse(String body) {
    if (body == null || body.isBlank()) {
      return new InvalidOrder(null, "body is empty");
    }
    if (exceedsSqsLimit(body)) {
      return new InvalidOrder(null, "body is larger than " + SqsLimits.MAX_MESSAGE_BYTES + " bytes (the SQS limit of 256 KiB)");
    }
    JsonNode message;
    try {
      message = reader.readTree(body);
    } catch (JsonProcessingException e) {
      return new InvalidOrder(null, notJson(e.getLocation()));
    }
    if (!message.isObject()) {
      return new InvalidOrder(null, "body must be a JSON object");
    }
    return validate(message);
  }

  private static ParsedOrder validate(JsonNode message) {
    Violations violations = new Violations();
    String orderId = violations.required(message.get("order_id"), "order_id", text(OrderMessage::isOrderId),
        "a string of 1 to 64 characters from A-Z a-z 0-9 _ -");
    Instant placedAt = violations.required(message.get("placed_at"), "placed_at", OrderParser::instant,
        "an ISO-8601 instant string such as 2026-11-20T14:03:11Z");
    Service service = violations.required(message.get("service"), "service", OrderParser::service,
        "\"standard\" or \"express\"");
    ShipTo shipTo = shipTo(message.get("ship_to"), violations);
    List<Parcel> parcels = parcels(message.get("parcels"), violations);
    if (violations.count() > 0) {
      return new InvalidOrder(orderId, violations.reason());
    }
    return new ValidOrder(new OrderMessage(orderId, placedAt, service, shipTo, parcels));
  }

  /** The address, or null when it broke a rule. */
  private static ShipTo shipTo(JsonNode field, Violations violations) {
    JsonNode shipTo = violations.required(field, "ship_to", OrderParser::object, "an object");
    if (shipTo == null) {
      return null;
    }
    int before = violations.count();
    String name = addressText(shipTo, "name", violations);
    String line1 = addressText(shipTo, "line1", violations);
    String line2 = violations.optional(shipTo.get("line2"), "ship_to.line2", text(OrderParser::fitsAddressField),
        "null or a string of at most 200 characters");
    String city = addressText(shipTo, "city", violations);
    String postcode = addressText(shipTo, "postcode", violations);
    String country = violations.required(shipTo.get("country"), "ship_to.country", text(COUNTRY.asMatchPredicate()),
        "an ISO 3166-1 alpha-2 code (two upper-case letters)");
    return violations.count() == before ? new ShipTo(name, line1, line2, city, postcode, country) : null;
  }

  private static String addressText(JsonNode shipTo, String field, Violations violations) {
    return violations.required(shipTo.get(field), "ship_to." + field,
        text(value -> !value.isBlank() && fitsAddressField(value)), "a non-blank string of at most 200 characters");
  }

  /** The parcels, or null when any of them broke a rule. */
  private static List<Parcel> parcels(JsonNode field, Violations violations) {
    JsonNode parcels = violations.required(field, "parcels",
        node -> node.isArray() && !node.isEmpty() && node.size() <= MAX_PARCELS ? node : null,
        "an array of 1 to " + MAX_PARCELS + " entries");
    if (parcels == null) {
      return null;
    }
    int before = violations.count();
    List<Parcel> result = new ArrayList<>(parcels.size());
    for (int i = 0; i < parcels.size(); i++) {
      String path = "parcels[" + i + "]";
      JsonNode parcel = violations.check(parcels.get(i), path, OrderParser::object, "an object");
      Integer weight = parcel == null ? null : violations.required(parcel.get("weight_grams"), path + ".weight_grams",
          OrderParser::weightGrams, "an integer from 1 to " + MAX_WEIGHT_GRAMS);
      if (weight != null) {
        result.add(new Parcel(weight));
      }
    }
    return violations.count() == before ? result : null;
  }

  private static Function<JsonNode, String> text(Predicate<String> rule) {
    return node -> node.isTextual() && rule.test(node.textValue()) ? node.textValue() : null;
  }

  private static boolean fitsAddressField(String value) {
    return value.codePointCount(0, value.length()) <= MAX_ADDRESS_CHARACTERS;
  }

  private static JsonNode object(JsonNode node) {
    return node.isObject() ? node : null;
  }

  private static Instant instant(JsonNode node) {
    try {
      return node.isTextual() ? Instant.parse(node.textValue()) : null;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static Service service(JsonNode node) {
    return node.isTextual() ? Service.fromJson(node.textValue()).orElse(null) : null;
  }

  /** Only a JSON integer: 1200.5, 1200.0 and "1200" are not weights in grams. */
  private static Integer weightGrams(JsonNode node) {
    boolean anInt = node.isIntegralNumber() && node.canConvertToInt();
    return anInt && node.intValue() >= 1 && node.intValue() <= MAX_WEIGHT_GRAMS ? node.intValue() : null;
  }

  private static boolean exceedsSqsLimit(String body) {
    // UTF-8 takes one to three bytes per UTF-16 unit, so only bodies in between need encoding.
    return body.length() > SqsLimits.MAX_MESSAGE_BYTES
        || body.length() > SqsLimits.MAX_MESSAGE_BYTES / 3 && body.getBytes(StandardCharsets.UTF_8).length > SqsLimits.MAX_MESSAGE_BYTES;
  }

  /** Where the JSON broke; Jackson's own message quotes the input, which may be an address. */
  private static String notJson(JsonLocation location) {
    if (location == null || location.getLineNr() < 1) {
      return "body is not valid JSON";
    }
    return "body is not valid JSON (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
  }
}
