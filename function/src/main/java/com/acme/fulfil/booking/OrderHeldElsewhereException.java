package com.acme.fulfil.booking;

import java.time.Instant;

/** Another try holds the order right now; this one sent nothing. The message is left for later. */
public final class OrderHeldElsewhereException extends RuntimeException {
  OrderHeldElsewhereException(Instant until) {
    super(until == null ? "another try took the order over before this one could send its booking request"
        : "another try holds the order until " + until);
  }
}
