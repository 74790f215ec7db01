package com.acme.fulfil.sim;

import java.net.URI;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** One courier booked and one label printed: what the partner answers with and lists on lookup. */
public record Booking(
    String shipmentId, String orderId, String courier, String trackingNumber, URI labelUrl, Instant bookedAt) {

  /** The contract's JSON object: exactly these five fields (bookedAt is the simulator's own). */
  Map<String, Object> contractBody() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("shipment_id", shipmentId);
    body.put("order_id", orderId);
    body.put("courier", courier);
    body.put("tracking_number", trackingNumber);
    body.put("label_url", labelUrl.toString());
    return body;
  }
}
