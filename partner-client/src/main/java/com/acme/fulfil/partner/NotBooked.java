package com.acme.fulfil.partner;

/**
 * Proof that a booking request left nothing booked, which only this package makes, from what the contract says proves
 * it: nothing else frees an order whose booking request may have left before the late-booking hold ends.
 */
public final class NotBooked {
  private final String because;

  NotBooked(String because) {
    this.because = because;
  }

  @Override
  public String toString() {
    return "not booked: " + because;
  }
}
