package com.acme.fulfil.partner;

import java.time.Instant;

/**
 * The booking request was sent and no answer proves what became of it (deadline, dropped connection, a
 * gateway's 5xx, a 201 we cannot read): the partner may have booked, or may still book up to the
 * contract's maximum after the request was sent. The next attempt must look the order up before
 * booking again, and not before the partner can no longer be booking.
 */
public final class PartnerOutcomeUnknownException extends PartnerException {
  private final Instant sentAt;

  PartnerOutcomeUnknownException(String message, Throwable cause, Instant sentAt) {
    super(message, cause);
    this.sentAt = sentAt;
  }

  /** When the booking request left: a late booking can appear until the contract's maximum after it. */
  public Instant sentAt() {
    return sentAt;
  }

  @Override
  public boolean permanent() {
    return false;
  }
}
