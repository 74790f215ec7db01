package com.acme.fulfil.local;

import java.time.Duration;

/**
 * How much faster than the real world a local run goes: every duration of the design (partner
 * latencies, visibility and function timeouts, retention) is divided by one divisor, so the ratios
 * that decide whether a message is processed twice stay exactly as deployed.
 *
 * <p>SQS takes visibility timeouts in whole seconds, so the divisor may not push the incident's 30 s
 * below 1 s: 30 is the largest that replays it faithfully (30 s becomes 1 s, 1,800 s 60 s, a 280 s
 * partner call 9.3 s).
 */
public record TimeScale(int divisor) {
  private static final Duration SMALLEST_VISIBILITY = Duration.ofSeconds(30);
  /** The local run's scale. */
  public static final TimeScale INCIDENT_REPLAY = new TimeScale(30);

  public TimeScale {
    if (divisor < 1 || divisor > SMALLEST_VISIBILITY.toSeconds()) {
      throw new IllegalArgumentException("the time scale divisor is " + divisor + " but must be from 1 to "
          + SMALLEST_VISIBILITY.toSeconds() + ": SQS visibility timeouts are whole seconds and the incident's is 30 s.");
    }
  }

  /** A real-world duration as this run plays it. */
  public Duration toLocal(Duration real) {
    return real.dividedBy(divisor);
  }

  /** A duration measured in this run, as it would have lasted in the real world. */
  public Duration toReal(Duration local) {
    return local.multipliedBy(divisor);
  }

  /** Lambda's 20 s long poll, scaled, but never under the 1 s that SQS's whole seconds allow. */
  public Duration pollWait() {
    return Duration.ofSeconds(Math.max(1, 20 / divisor));
  }

  @Override
  public String toString() {
    return "1/" + divisor;
  }
}
