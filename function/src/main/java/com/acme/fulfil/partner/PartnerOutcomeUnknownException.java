package com.acme.fulfil.partner;

import java.time.Instant;

/**
 * The booking request was sent and no answer proves what became of it (deadline, dropped connection, a
 * gateway's 5xx, a 201 we cannot read): the partner may have booked, or may still book up to the
 * contract's maximum after the request was sent. The next attempt must look the order up before
 * booking again, and not before the partner can no longer be booking.
 *
 * <p>The contract's 300 s run from when the partner received the request, which we cannot see: it
 * was received at the latest when the try stopped waiting (an answer came, the connection broke, the
 * deadline passed). A late booking is possible until the contract's maximum after that moment.
 */
public final class PartnerOutcomeUnknownException extends PartnerException {
  private final Instant receivableUntil;

  PartnerOutcomeUnknownException(String message, Throwable cause, Instant receivableUntil) {
    super(message, cause);
    this.receivableUntil = receivableUntil;
  }

  /** The latest moment the partner can have received the request: when the try stopped waiting. */
  public Instant receivableUntil() {
    return receivableUntil;
  }

  @Override
  public boolean permanent() {
    return false;
  }
}
