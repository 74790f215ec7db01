package com.acme.fulfil.sim;

import java.time.Duration;
import java.util.random.RandomGenerator;

/** No latency at all. */
final class InstantLatency implements LatencyModel {

  @Override
  public Duration booking(RandomGenerator random) {
    return Duration.ZERO;
  }

  @Override
  public Duration degradedBooking(RandomGenerator random) {
    return Duration.ZERO;
  }

  @Override
  public Duration lookup(RandomGenerator random) {
    return Duration.ZERO;
  }
}
