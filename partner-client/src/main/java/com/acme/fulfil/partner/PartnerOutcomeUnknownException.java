package com.acme.fulfil.partner;

/**
 * A booking request may have left and nothing the contract lists as "not booked" came back: the partner may have
 * booked, or may still book up to the contract's maximum after it received the request. The next try must look the
 * order up before booking again, and not before the partner can no longer be booking.
 */
public final class PartnerOutcomeUnknownException extends PartnerException {
  PartnerOutcomeUnknownException(String message, Throwable cause) {
    super(message, cause, null);
  }
}
