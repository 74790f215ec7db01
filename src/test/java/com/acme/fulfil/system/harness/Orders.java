package com.acme.fulfil.system.harness;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.UUID;

/**
 * Order messages as the checkout service sends them (docs/order-message.md), with invented
 * placeholder names and addresses: nothing personal, even in a test.
 */
public final class Orders {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Orders() {}

  /** A fresh order id under {@code prefix}, unique across the run. */
  public static String newId(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 13);
  }

  /** A valid order message, as a tree a test may break. */
  public static ObjectNode valid(String orderId) {
    ObjectNode order = JSON.createObjectNode();
    order.put("order_id", orderId);
    order.put("placed_at", "2026-11-20T14:03:11Z");
    order.put("service", "standard");
    ObjectNode shipTo = order.putObject("ship_to");
    shipTo.put("name", "Test Customer");
    shipTo.put("line1", "1 Example Street");
    shipTo.putNull("line2");
    shipTo.put("city", "London");
    shipTo.put("postcode", "AB1 2CD");
    shipTo.put("country", "GB");
    order.putArray("parcels").addObject().put("weight_grams", 1200);
    return order;
  }

  public static String body(String orderId) {
    return valid(orderId).toString();
  }
}
