package com.acme.fulfil.partner;

/**
 * The booking request was sent but no answer came back in time (deadline, dropped connection): the
 * partner may or may not have booked. The next attempt must look the order up before booking again.
 */
public final class PartnerOutcomeUnknownException extends PartnerException {
  PartnerOutcomeUnknownException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public boolean permanent() {
    return false;
  }
}
