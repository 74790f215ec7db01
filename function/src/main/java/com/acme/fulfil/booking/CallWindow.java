package com.acme.fulfil.booking;

import com.acme.fulfil.partner.Deadline;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * The part of an invocation's remaining time a partner call may use. Lambda kills the function at its timeout without
 * warning, so every call ends {@code margin} before it, leaving time to record the outcome; and a booking starts only
 * if the partner's worst case still fits, since one cut short is an unknown outcome that costs a retry and a lookup.
 */
public record CallWindow(Clock clock, LongSupplier remainingMillis, Duration margin, Duration partnerWorstCase,
    Duration lookupTimeout) {

  /** When the invocation ends (its timeout), as far as this moment can tell. */
  public Instant invocationEnd() {
    return clock.instant().plusMillis(remainingMillis.getAsLong());
  }

  /** Time the partner may have before the handler must stop waiting. */
  public Duration usable() {
    Duration usable = Duration.ofMillis(remainingMillis.getAsLong()).minus(margin);
    return usable.isNegative() ? Duration.ZERO : usable;
  }

  /** Whether a partner call may start, and by when it must end: {@link CallTime}. */
  public sealed interface CallTime {}

  /** The call may start, and must be over by {@code deadline}. */
  public record Until(Deadline deadline) implements CallTime {}

  /** Not started: the invocation has too little time left, so nothing is sent and the message comes back. */
  public record NoTime(String reason) implements CallTime {}

  public CallTime forLookup() {
    Duration usable = usable();
    if (usable.isZero()) {
      return new NoTime("no time left for a partner lookup before the function's deadline");
    }
    return new Until(Deadline.in(usable.compareTo(lookupTimeout) < 0 ? usable : lookupTimeout));
  }

  public CallTime forBooking() {
    Duration usable = usable();
    if (usable.compareTo(partnerWorstCase) < 0) {
      return new NoTime("only " + usable.toMillis() + " ms left before the deadline margin, the partner may take "
          + partnerWorstCase.toMillis() + " ms: not starting a booking that could not finish");
    }
    return new Until(Deadline.in(usable));
  }
}
