package com.acme.fulfil.sim;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The partner as the incident report measured it: "a sharp peak around 40 seconds and a long tail
 * out to 280 seconds", 30-60 s under normal conditions.
 *
 * <ul>
 *   <li>Healthy booking: 92% from the peak, a normal distribution around 40 s (sd 5 s) kept inside
 *       30-60 s; 8% from the tail ({@code tailShare}, which is 0 where the tail only comes in the
 *       partner's degraded windows).
 *   <li>Tail: 60-280 s with a density falling linearly to zero at 280 s, so long calls are common
 *       enough to matter and the worst case is bounded.
 *   <li>Degraded booking: always from the tail.
 *   <li>Lookup: uniform 0.2-1.5 s.
 * </ul>
 */
final class IncidentLatency implements LatencyModel {

  static final double PEAK_MEAN_SECONDS = 40;
  static final double PEAK_SD_SECONDS = 5;
  static final double PEAK_LOW_SECONDS = 30;
  static final double PEAK_HIGH_SECONDS = 60;
  static final double TAIL_HIGH_SECONDS = 280;
  static final double LOOKUP_LOW_SECONDS = 0.2;
  static final double LOOKUP_HIGH_SECONDS = 1.5;

  private final double tailShare;

  IncidentLatency(double tailShare) {
    this.tailShare = tailShare;
  }

  @Override
  public Duration booking(RandomGenerator random) {
    return random.nextDouble() < tailShare ? tail(random) : peak(random);
  }

  @Override
  public Duration degradedBooking(RandomGenerator random) {
    return tail(random);
  }

  @Override
  public Duration lookup(RandomGenerator random) {
    return seconds(random.nextDouble(LOOKUP_LOW_SECONDS, LOOKUP_HIGH_SECONDS));
  }

  private static Duration peak(RandomGenerator random) {
    double seconds;
    do {
      seconds = random.nextGaussian(PEAK_MEAN_SECONDS, PEAK_SD_SECONDS);
    } while (seconds < PEAK_LOW_SECONDS || seconds > PEAK_HIGH_SECONDS);
    return seconds(seconds);
  }

  // Inverse transform of the falling-triangle density on [60, 280]: F(x) = 1 - ((280 - x) / 220)^2.
  private static Duration tail(RandomGenerator random) {
    double width = TAIL_HIGH_SECONDS - PEAK_HIGH_SECONDS;
    return seconds(TAIL_HIGH_SECONDS - width * Math.sqrt(1 - random.nextDouble()));
  }

  private static Duration seconds(double seconds) {
    return Duration.ofNanos(Math.round(seconds * 1e9));
  }
}
