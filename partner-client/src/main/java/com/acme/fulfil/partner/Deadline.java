package com.acme.fulfil.partner;

import java.time.Duration;

/** A point in monotonic time by which a partner exchange must be over, retries included. */
public record Deadline(long nanoTime) {

  public static Deadline in(Duration budget) {
    return new Deadline(System.nanoTime() + budget.toNanos());
  }

  public Duration remaining() {
    return Duration.ofNanos(Math.max(0, nanoTime - System.nanoTime()));
  }
}
