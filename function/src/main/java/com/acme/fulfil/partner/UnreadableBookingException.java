package com.acme.fulfil.partner;

/**
 * A lookup lists an entry that may be the order's booking and cannot be read: no booking request may be sent, nor can
 * it be recorded. Transient: the partner may mend its record before the message's receives run out; otherwise the
 * message reaches the DLQ with this reason on the order's record, and on-call asks the partner.
 */
public final class UnreadableBookingException extends PartnerException {
  UnreadableBookingException(String message) {
    super(message, null, null);
  }
}
