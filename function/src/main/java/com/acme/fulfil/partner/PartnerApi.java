package com.acme.fulfil.partner;

import com.acme.fulfil.observability.TraceContext;
import java.util.List;
import java.util.Optional;

/**
 * The two calls of the partner's API the booking protocol makes (docs/partner-api.md), with every
 * answer already classified: a {@link Shipment}, or a {@link PartnerException} saying what the answer
 * proves. {@link PartnerClient} is the HTTP one. Each call is sent as a child of {@code trace}, the
 * order's trace, when there is one.
 */
public interface PartnerApi {
  /** {@code POST /v1/shipments}: books one more courier, whatever was booked before. */
  Shipment book(ShipmentRequest request, String requestId, Optional<TraceContext> trace, Deadline deadline);

  /** {@code GET /v1/shipments?order_id=}: every booking of the order, oldest first. */
  List<Shipment> lookup(String orderId, String requestId, Optional<TraceContext> trace, Deadline deadline);
}
