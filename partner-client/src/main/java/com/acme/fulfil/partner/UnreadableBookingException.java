package com.acme.fulfil.partner;

/**
 * A lookup lists an entry that may be the order's booking and cannot be read, so it is neither booked again nor
 * recorded. Transient: the partner may mend it in time; if not, on-call finds this reason on the order's record.
 */
public final class UnreadableBookingException extends PartnerException {
  UnreadableBookingException(String message) {
    super(message, null, null);
  }
}
