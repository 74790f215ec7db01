package com.acme.fulfil.config;

import com.acme.fulfil.booking.CallWindow;
import java.time.Clock;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * How long the function gives the partner: a lookup at most {@code lookupTimeout}; a booking starts only while the
 * partner's {@code worstCase} still fits before the invocation's end, less the {@code deadlineMargin} kept to record
 * the outcome.
 */
public record CallTimes(Duration lookupTimeout, Duration worstCase, Duration deadlineMargin) {
  public CallTimes {
    Parts.positive("lookupTimeout", lookupTimeout);
    Parts.positive("worstCase", worstCase);
    Parts.positive("deadlineMargin", deadlineMargin);
  }

  /** The part of one invocation's remaining time the partner's calls may use. */
  public CallWindow window(Clock clock, LongSupplier remainingMillis) {
    return new CallWindow(clock, remainingMillis, deadlineMargin, worstCase, lookupTimeout);
  }
}
