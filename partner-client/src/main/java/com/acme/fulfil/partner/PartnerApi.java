package com.acme.fulfil.partner;

import com.acme.fulfil.trace.TraceContext;
import java.util.List;
import java.util.Optional;

/**
 * The two calls of the partner's API the booking protocol makes (docs/partner-api.md), every answer classified: a
 * {@link Shipment}, or a {@link PartnerException} saying what it proves. Each is sent in the order's {@code trace}, and
 * each HTTP request it makes carries an id of its own that starts with {@code attemptId}.
 */
public interface PartnerApi {
  /** {@code POST /v1/shipments}: books one more courier, whatever was booked before. */
  Shipment book(ShipmentRequest request, String attemptId, Optional<TraceContext> trace, Deadline deadline);

  /** {@code GET /v1/shipments?order_id=}: every booking of the order, oldest first. */
  List<Shipment> lookup(String orderId, String attemptId, Optional<TraceContext> trace, Deadline deadline);
}
