package com.acme.fulfil.partner;

/**
 * Proof that a booking request left nothing booked at the partner. Only this package makes one, only from what the
 * contract says proves it; once a booking request may have left, nothing else frees the order before the late-booking
 * hold ends.
 */
public final class NotBooked {
  private final String because;

  NotBooked(String because) {
    this.because = because;
  }

  /** What proved it, in a few words. */
  public String because() {
    return because;
  }

  @Override
  public String toString() {
    return "not booked: " + because;
  }
}
