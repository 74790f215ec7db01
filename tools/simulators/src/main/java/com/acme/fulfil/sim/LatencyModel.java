package com.acme.fulfil.sim;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * How long the partner takes, in partner time (before the time-scale divisor).
 *
 * <p>A model is a pure function of the random generator it is handed, so a seeded generator gives
 * the same latencies run after run; the partner owns that generator and divides what comes back by
 * its time-scale divisor.
 */
public interface LatencyModel {
  /** The share of the incident's bookings that come from its tail (60-280 s). */
  double INCIDENT_SLOW_SHARE = 0.08;

  /** A booking (POST) on a healthy day. */
  Duration booking(RandomGenerator random);

  /** A booking (POST) while the partner is degraded. */
  Duration degradedBooking(RandomGenerator random);

  /** A lookup (GET); the contract promises under 2 s. */
  Duration lookup(RandomGenerator random);

  /** Every call answers at once: for tests about behaviour, not timing. */
  static LatencyModel instant() {
    return new InstantLatency();
  }

  /** The incident's shape, its slow calls at random among the others: see {@link IncidentLatency}. */
  static LatencyModel incident() {
    return new IncidentLatency(INCIDENT_SLOW_SHARE);
  }

  /**
   * The incident's shape with its slow calls all in the partner's degraded windows ("partner-slowdown
   * windows", the incident report says): healthy bookings come from the peak alone, degraded ones from
   * the tail.
   */
  static LatencyModel incidentSlowOnlyWhenDegraded() {
    return new IncidentLatency(0);
  }
}
