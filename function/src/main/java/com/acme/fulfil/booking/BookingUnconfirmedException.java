package com.acme.fulfil.booking;

import java.time.Instant;

/** A booking request may have left and nothing proves it booked nothing: the order is held until {@link #heldUntil}. */
public final class BookingUnconfirmedException extends RuntimeException {
  private final transient Instant heldUntil;

  BookingUnconfirmedException(Instant heldUntil, RuntimeException ending) {
    super("the booking request may have been carried out; the order is held until " + heldUntil, ending);
    this.heldUntil = heldUntil;
  }

  public Instant heldUntil() {
    return heldUntil;
  }
}
