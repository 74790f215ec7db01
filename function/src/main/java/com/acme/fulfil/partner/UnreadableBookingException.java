package com.acme.fulfil.partner;

/**
 * The partner's lookup lists an entry that may be a booking of the order and cannot be read: its
 * {@code shipment_id} a number, null, blank or missing, the entry not a shipment at all, or its
 * {@code order_id} absent, or ours only after trimming or case-folding, or not an order id at all.
 * The order may have a booking, so no booking request may be sent; it cannot be recorded either. A
 * transient failure: the partner may mend its record before the message's receives run out, and a
 * later try adopts the booking; otherwise the message reaches the DLQ with this reason on the order's
 * record, and on-call asks the partner.
 */
public final class UnreadableBookingException extends PartnerException {
  UnreadableBookingException(String message) {
    super(message, null, null);
  }

  @Override
  public boolean permanent() {
    return false;
  }
}
