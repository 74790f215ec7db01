package com.acme.fulfil.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The parts of a valid POST body the partner acts on, and the partner's front-door validation.
 *
 * <p>The rules are the order message's (the checkout service and the partner agree on the shape),
 * so a request the function builds from a valid order always passes, and anything else gets
 * {@code 400 invalid_request}. Messages name the field, never its value: bodies carry addresses.
 */
record ShipmentRequest(String orderId, String service, String country, String postcode) {

  private static final Pattern ORDER_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern COUNTRY = Pattern.compile("[A-Z]{2}");
  private static final int MAX_TEXT = 200;
  private static final int MAX_PARCELS = 50;
  private static final int MAX_WEIGHT_GRAMS = 70_000;

  /** Why a body will never be accepted; the message is the 400's {@code message}. */
  static final class Invalid extends Exception {
    Invalid(String message) {
      super(message, null, false, false);
    }
  }

  static ShipmentRequest from(Optional<String> contentType, JsonNode body) throws Invalid {
    if (!contentType.map(ShipmentRequest::isJson).orElse(false)) {
      throw new Invalid("Content-Type must be application/json");
    }
    if (!body.isObject()) {
      throw new Invalid("the body must be a JSON object");
    }
    String orderId = text(body, "order_id");
    if (orderId == null || !ORDER_ID.matcher(orderId).matches()) {
      throw new Invalid("order_id must be 1-64 characters of A-Z a-z 0-9 _ -");
    }
    String service = text(body, "service");
    if (!"standard".equals(service) && !"express".equals(service)) {
      throw new Invalid("service must be standard or express");
    }
    JsonNode shipTo = body.path("ship_to");
    if (!shipTo.isObject()) {
      throw new Invalid("ship_to must be an object");
    }
    for (String field : new String[] {"name", "line1", "city", "postcode"}) {
      String value = text(shipTo, field);
      if (value == null || value.isBlank() || value.length() > MAX_TEXT) {
        throw new Invalid("ship_to." + field + " must be a non-blank string of at most " + MAX_TEXT + " characters");
      }
    }
    JsonNode line2 = shipTo.path("line2");
    if (!line2.isMissingNode() && !line2.isNull() && !(line2.isTextual() && line2.asText().length() <= MAX_TEXT)) {
      throw new Invalid("ship_to.line2 must be null or a string of at most " + MAX_TEXT + " characters");
    }
    String country = text(shipTo, "country");
    if (country == null || !COUNTRY.matcher(country).matches()) {
      throw new Invalid("ship_to.country must be an ISO 3166-1 alpha-2 code (two upper-case letters)");
    }
    checkParcels(body.path("parcels"));
    return new ShipmentRequest(orderId, service, country, text(shipTo, "postcode"));
  }

  /** The content triggers documented on {@link SimulatedPartner}. */
  Optional<Reaction.Fault> rejection() {
    if (SimulatedPartner.UNSUPPORTED_COUNTRY.equals(country)) {
      return Optional.of(Reaction.unsupportedDestination());
    }
    if (SimulatedPartner.REJECTED_POSTCODE.equals(postcode)) {
      return Optional.of(Reaction.addressRejected());
    }
    return Optional.empty();
  }

  private static void checkParcels(JsonNode parcels) throws Invalid {
    if (!parcels.isArray() || parcels.isEmpty() || parcels.size() > MAX_PARCELS) {
      throw new Invalid("parcels must be a list of 1 to " + MAX_PARCELS + " parcels");
    }
    for (int i = 0; i < parcels.size(); i++) {
      JsonNode weight = parcels.get(i).path("weight_grams");
      if (!weight.isIntegralNumber() || !weight.canConvertToInt()
          || weight.intValue() < 1 || weight.intValue() > MAX_WEIGHT_GRAMS) {
        throw new Invalid("parcels[" + i + "].weight_grams must be an integer from 1 to " + MAX_WEIGHT_GRAMS);
      }
    }
  }

  private static boolean isJson(String contentType) {
    return contentType.split(";", 2)[0].strip().equalsIgnoreCase("application/json");
  }

  private static String text(JsonNode object, String field) {
    JsonNode value = object.path(field);
    return value.isTextual() ? value.asText() : null;
  }
}
