package com.acme.fulfil.booking;

import com.acme.fulfil.partner.Shipment;

/**
 * The courier booked for an order, as stored in the order's record. {@code attemptId} names the attempt that got it:
 * a later delivery that reads another attempt's id back knows it was a duplicate.
 */
public record Booking(String orderId, String shipmentId, String trackingNumber, String courier, String labelUrl,
    Source source, String attemptId) {

  /** How the attempt got it: {@code POST /v1/shipments}, or adopted from an earlier, unfinished attempt's booking. */
  public enum Source { BOOKED, ADOPTED }

  static Booking of(Shipment shipment, Source source, String attemptId) {
    return new Booking(shipment.orderId(), shipment.shipmentId(), shipment.trackingNumber(), shipment.courier(),
        shipment.labelUrl(), source, attemptId);
  }

  public boolean madeBy(String attempt) {
    return attemptId.equals(attempt);
  }
}
