package com.acme.fulfil.booking;

import java.time.Instant;
import java.util.Optional;

/** Another try holds the order right now; this one sent nothing. The message is left for later. */
public final class OrderHeldElsewhereException extends RuntimeException {
  private final transient Optional<Instant> until;

  OrderHeldElsewhereException(Instant until) {
    super(until == null ? "another try took the order over before this one could send its booking request"
        : "another try holds the order until " + until);
    this.until = Optional.ofNullable(until);
  }

  /** When the other try's lock ends, as the order's record says; empty when this try could not read it. */
  public Optional<Instant> until() {
    return until;
  }
}
