package com.acme.fulfil.partner;

/**
 * A booking request may have left and no answer proves what became of it (deadline, dropped
 * connection, a gateway's 5xx, a 201 we cannot read, bytes the HTTP client refused, anything the
 * contract does not list as "not booked"): the partner may have booked, or may still book up to the
 * contract's maximum after it received the request. The next try must look the order up before
 * booking again, and not before the partner can no longer be booking.
 */
public final class PartnerOutcomeUnknownException extends PartnerException {
  PartnerOutcomeUnknownException(String message, Throwable cause) {
    super(message, cause, null);
  }

  @Override
  public boolean permanent() {
    return false;
  }
}
