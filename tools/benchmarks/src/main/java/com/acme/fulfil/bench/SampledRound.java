package com.acme.fulfil.bench;

import com.acme.fulfil.sim.LatencyModel;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * The mean of the slowest of {@code orders} orders booked side by side, each a lookup then a booking,
 * drawn from the simulated partner's latency model: what one round of a batch takes.
 */
record SampledRound(LatencyModel partner, boolean degraded, long seed) {

  double meanSlowestSeconds(int orders, int samples) {
    SplittableRandom random = new SplittableRandom(seed);
    double total = 0;
    for (int i = 0; i < samples; i++) {
      double slowest = 0;
      for (int r = 0; r < orders; r++) {
        slowest = Math.max(slowest, seconds(partner.lookup(random))
            + seconds(degraded ? partner.degradedBooking(random) : partner.booking(random)));
      }
      total += slowest;
    }
    return total / samples;
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }
}
