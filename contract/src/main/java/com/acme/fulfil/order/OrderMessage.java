package com.acme.fulfil.order;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One order to fulfil, as the checkout service sent it on {@code orders-to-fulfil}; only {@link OrderParser} makes
 * these from a message, so every instance met the contract.
 *
 * @param orderId the idempotency key: one booking per order id, whatever the SQS message id
 */
public record OrderMessage(@JsonProperty("order_id") String orderId,
    // Instant.toString is ISO-8601, so this needs no jackson-datatype-jsr310 on the function's path and writes the
    // same string whether or not a mapper registers JavaTimeModule.
    @JsonProperty("placed_at") @JsonSerialize(using = ToStringSerializer.class) Instant placedAt,
    @JsonProperty("service") Service service, @JsonProperty("ship_to") ShipTo shipTo,
    @JsonProperty("parcels") List<Parcel> parcels) {

  /** The queue the checkout service sends to: part of the contract (docs/order-message.md), so the stack keeps it. */
  public static final String QUEUE_NAME = "orders-to-fulfil";

  private static final Pattern ORDER_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  /** Whether {@code text} is an order id as the contract defines one: 1-64 of {@code A-Z a-z 0-9 _ -}. */
  public static boolean isOrderId(String text) {
    return ORDER_ID.matcher(text).matches();
  }

  public OrderMessage {
    Objects.requireNonNull(orderId, "orderId");
    Objects.requireNonNull(placedAt, "placedAt");
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(shipTo, "shipTo");
    parcels = List.copyOf(parcels);
  }
}
