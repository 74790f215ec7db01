package com.acme.fulfil.partner;

/**
 * Proof that a booking request left nothing booked at the partner. Only this package makes one, and
 * only from what the contract says proves it: the partner's error body on a 400 or 422, a 413, a
 * 415, a 429, a 401 after the key was re-read, or a request that never reached the network. Once a
 * booking request may have left, nothing else frees the order before the late-booking hold ends.
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
