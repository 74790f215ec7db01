package com.acme.fulfil.partner;

import java.util.List;

/**
 * The two calls of the partner's API the booking protocol makes (docs/partner-api.md), with every
 * answer already classified: a {@link Shipment}, or a {@link PartnerException} saying what the answer
 * proves. {@link PartnerClient} is the HTTP one.
 */
public interface PartnerApi {
  /** {@code POST /v1/shipments}: books one more courier, whatever was booked before. */
  Shipment book(ShipmentRequest request, String requestId, Deadline deadline);

  /** {@code GET /v1/shipments?order_id=}: every booking of the order, oldest first. */
  List<Shipment> lookup(String orderId, String requestId, Deadline deadline);
}
