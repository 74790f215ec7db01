package com.acme.fulfil.booking;

import com.acme.fulfil.partner.Shipment;

/**
 * The courier booked for an order, as stored in the idempotency record. {@code attemptId} names the
 * attempt that produced it: a later delivery that gets this record back from the store with another
 * attempt's id knows it was suppressed as a duplicate.
 */
public record Booking(String orderId, String shipmentId, String trackingNumber, String courier, String labelUrl,
    Source source, String attemptId) {

  /** How the attempt that stored this booking got it. */
  public enum Source {
    /** Booked a courier with {@code POST /v1/shipments}. */
    BOOKED,
    /** Found a courier an earlier, unfinished attempt had booked and adopted it. */
    ADOPTED
  }

  static Booking of(Shipment shipment, Source source, String attemptId) {
    return new Booking(shipment.orderId(), shipment.shipmentId(), shipment.trackingNumber(), shipment.courier(),
        shipment.labelUrl(), source, attemptId);
  }

  public boolean madeBy(String attempt) {
    return attemptId.equals(attempt);
  }
}
