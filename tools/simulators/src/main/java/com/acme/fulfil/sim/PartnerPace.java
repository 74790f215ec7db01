package com.acme.fulfil.sim;

import java.time.Duration;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * The partner's dice: latencies from the model divided by the time-scale divisor, and the coin
 * that decides which degraded calls fail. One seeded generator behind a lock, so a run with the
 * same seed and the same request order draws the same numbers.
 */
final class PartnerPace {

  private final LatencyModel model;
  private final int timeScaleDivisor;
  private final RandomGenerator random;

  PartnerPace(LatencyModel model, int timeScaleDivisor, long seed) {
    this.model = Objects.requireNonNull(model, "model");
    if (timeScaleDivisor < 1) {
      throw new IllegalArgumentException("timeScaleDivisor must be at least 1, got " + timeScaleDivisor);
    }
    this.timeScaleDivisor = timeScaleDivisor;
    this.random = new SplittableRandom(seed);
  }

  Duration booking(PartnerMode mode) {
    return scaled(mode == PartnerMode.DEGRADED ? model::degradedBooking : model::booking);
  }

  Duration lookup() {
    return scaled(model::lookup);
  }

  synchronized boolean chance(double share) {
    return random.nextDouble() < share;
  }

  private synchronized Duration scaled(Function<RandomGenerator, Duration> draw) {
    return draw.apply(random).dividedBy(timeScaleDivisor);
  }
}
