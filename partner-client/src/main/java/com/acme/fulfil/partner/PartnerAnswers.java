package com.acme.fulfil.partner;

import com.acme.fulfil.contract.oncall.OnCallPhrases;
import com.acme.fulfil.order.OrderMessage;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What each answer of the partner means for a try: the table of docs/partner-api.md, in one place. The partner never
 * deduplicates, so only the answers listed here as "not booked" carry a {@link NotBooked} proof, and every other answer
 * to a booking is an unknown outcome; a lookup proves "no booking" only as one well-formed document in which every
 * entry plainly names another order.
 */
final class PartnerAnswers {
  /**
   * The partner's verdicts, by the status the contract sends each with: only these codes are the partner's. A
   * gateway's own error JSON ({@code "error":"Bad Request"}) has the shape and proves nothing.
   */
  private static final Map<Integer, Set<String>> VERDICTS =
      Map.of(400, Set.of("invalid_request"), 422, Set.of("address_rejected", "unsupported_destination"));
  private static final String INVALID_API_KEY = "invalid_api_key";
  /**
   * The partner refused the key that the secret holds now: said the same way on a lookup and on a booking, since the
   * runbook's key rotation finds the order's line by it, and nothing changes until someone rotates the secret.
   */
  static final String KEY_REFUSED = "partner refused the API key even after re-reading the secret (401): "
      + OnCallPhrases.ROTATE_THE_SECRET;
  private static final String RATE_LIMITED = "rate_limited";

  private final ObjectMapper json;
  /**
   * One JSON document or none: a list followed by more bytes (a proxy's page, two answers run together) proves
   * nothing, least of all that the order has no booking; nor does a key twice ({@code "shipments"} booked, then empty).
   */
  private final ObjectReader documents;

  PartnerAnswers(ObjectMapper json) {
    this.json = json;
    this.documents = json.reader()
        .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
  }

  /** The answer to {@code POST /v1/shipments}: the booking, or what the try does; a 401 is the key's second refusal. */
  Shipment booking(String orderId, int status, String body, String retryAfter) {
    return switch (status) {
      case 201 -> readable(document(body)).filter(s -> orderId.equals(s.orderId())).orElseThrow(() -> unknown(
          "partner answered 201 with a body that is not this order's booking: it booked something we cannot read"));
      case 400, 422 -> {
        String error = partnersError(body);
        if (error == null || !VERDICTS.get(status).contains(error)) {
          throw unknown("partner answered " + status + " without an error code the contract gives it: not the partner's verdict");
        }
        throw new PartnerRejectedException(status, error);
      }
      case 401 -> {
        if (!keyRefused(status, body)) {
          throw unknown("partner answered 401 without the contract's invalid_api_key body: not the partner's refusal");
        }
        throw PartnerUnavailableException.keyRefused(KEY_REFUSED);
      }
      case 429 -> {
        if (!RATE_LIMITED.equals(partnersError(body))) {
          throw unknown("partner answered 429 without the contract's rate_limited body: not the partner's refusal");
        }
        throw PartnerUnavailableException.rateLimited(
            "partner rate limited the call (429, Retry-After " + retryAfter + ")", retryAfter(retryAfter));
      }
      default -> throw unknown("partner answered " + status
          + ", which does not say that nothing was booked (a gateway may answer while the partner still books)");
    };
  }

  /** Whether an answer is the partner's refusal of the key (401 {@code invalid_api_key}): nothing was done, send again. */
  boolean keyRefused(int status, String body) {
    return status == 401 && INVALID_API_KEY.equals(partnersError(body));
  }

  /**
   * The answer to {@code GET /v1/shipments?order_id=}: the order's own bookings, oldest first, each once; a lookup
   * books nothing, so every failure is transient, and a key refused again waits for a person as on a booking. An entry not plainly another order's and not readable as ours may be
   * a booking to neither record nor book again ({@link UnreadableBookingException}) unless a readable one is listed.
   */
  List<Shipment> lookup(String orderId, int status, String body) {
    // The client re-read the secret on the partner's first refusal: this is its second, as on a booking.
    if (keyRefused(status, body)) {
      throw PartnerUnavailableException.keyRefused(KEY_REFUSED);
    }
    if (status != 200) {
      throw PartnerUnavailableException.lookupFailed("partner answered " + status + " to a lookup", null);
    }
    JsonNode shipments;
    try {
      shipments = documents.readTree(body).path("shipments");
    } catch (JsonProcessingException e) {
      throw PartnerUnavailableException.lookupFailed("partner answered a lookup with a body that is not one JSON document", e);
    }
    if (!shipments.isArray()) {
      throw PartnerUnavailableException.lookupFailed("partner answered a lookup without a list of shipments", null);
    }
    Map<String, Shipment> own = new LinkedHashMap<>();
    List<String> unreadable = new ArrayList<>();
    for (JsonNode entry : shipments) {
      if (!anotherOrders(orderId, entry)) {
        readable(entry).filter(s -> orderId.equals(s.orderId()))
            .ifPresentOrElse(s -> own.putIfAbsent(s.shipmentId(), s), () -> unreadable.add(defect(orderId, entry)));
      }
    }
    if (own.isEmpty() && !unreadable.isEmpty()) {
      throw new UnreadableBookingException("partner lists " + unreadable.size() + " booking(s) of this order that cannot be read ("
          + String.join("; ", unreadable) + "); no booking request sent: ask the partner which courier it booked for the order");
    }
    return List.copyOf(own.values());
  }

  /** Another order's entry: an id that is no order id, or ours in another case, may be ours, trimmed or case-folded. */
  private static boolean anotherOrders(String orderId, JsonNode entry) {
    JsonNode owner = entry.path("order_id");
    return owner.isTextual() && OrderMessage.isOrderId(owner.asText()) && !owner.asText().equalsIgnoreCase(orderId);
  }

  /** What makes an entry unreadable, told by JSON types only: the entry may hold anything, personal data too. */
  private static String defect(String orderId, JsonNode entry) {
    if (!entry.isObject()) {
      return "an entry that is " + kind(entry);
    }
    for (String field : List.of("shipment_id", "order_id")) {
      JsonNode value = entry.path(field);
      if (!value.isTextual() || value.asText().isBlank()) {
        return field + " is " + (value.isTextual() ? "blank" : kind(value));
      }
    }
    String owner = entry.path("order_id").asText();
    if (!OrderMessage.isOrderId(owner)) {
      return "order_id is not an order id (spaces or characters beyond A-Z a-z 0-9 _ -)";
    }
    if (!owner.equals(orderId)) {
      return "order_id is this order's in another case";
    }
    return "a field of the wrong type";
  }

  private static String kind(JsonNode node) {
    String type = node.isPojo() ? "object" : node.getNodeType().name().toLowerCase(Locale.ROOT);
    return switch (type) {
      case "missing", "null", "binary" -> type;
      case "array", "object" -> "an " + type;
      default -> "a " + type;
    };
  }

  /** The entry as a booking to record: an id and an order, its other fields text or absent; else nothing. */
  private Optional<Shipment> readable(JsonNode node) {
    if (node == null || !node.isObject() || !node.path("shipment_id").isTextual() || !node.path("order_id").isTextual()
        || node.path("shipment_id").asText().isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(json.convertValue(node, Shipment.class));
    } catch (IllegalArgumentException wrongType) {
      // A courier or tracking number that is an object or a list: the partner wrote something else.
      return Optional.empty();
    }
  }

  /** The body as one JSON document, or a missing node when it is none. */
  private JsonNode document(String body) {
    try {
      return documents.readTree(body);
    } catch (JsonProcessingException e) {
      return MissingNode.getInstance();
    }
  }

  /** The {@code error} code of a body that is one JSON error document, or null when it is none. */
  private String partnersError(String body) {
    JsonNode error = document(body).path("error");
    return error.isTextual() && !error.asText().isBlank() ? error.asText() : null;
  }

  /** {@code Retry-After} in seconds, the contract's form; anything else (an HTTP date too) is none, and backs off. */
  static Optional<Duration> retryAfter(String header) {
    try {
      long seconds = Long.parseLong(header == null ? "" : header.strip());
      return seconds < 0 ? Optional.empty() : Optional.of(Duration.ofSeconds(seconds));
    } catch (NumberFormatException notSeconds) {
      return Optional.empty();
    }
  }

  private static PartnerOutcomeUnknownException unknown(String message) {
    return new PartnerOutcomeUnknownException(message, null);
  }
}
