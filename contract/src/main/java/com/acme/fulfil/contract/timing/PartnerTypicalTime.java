package com.acme.fulfil.contract.timing;

import java.time.Duration;

/**
 * The partner's time on a normal day for the slowest of up to ten orders booked side by side: what one
 * round of a batch takes, since an invocation ends only when its last record has its answer.
 *
 * <p>The incident's latency shape: 92% of bookings around 40 s (sd 5 s, within 30-60 s), 8% from a
 * 60-280 s tail whose density falls to zero at 280 s, each after a lookup of 0.2-1.5 s. One order
 * averages 48.6 s, but ten side by side draw at least one from the tail more often than not (1 - 0.92^10
 * = 57%), so their slowest averages 103 s: a round of ten books ten orders in about twice one order's
 * time, not in one order's time.
 *
 * <p>Whole seconds, the expected slowest of 1 to 10 orders. One order keeps the figure the stack has
 * always been sized with, 48 s, 1% under the shape's mean. The benchmarks module's
 * {@code PartnerTypicalTimeTest} checks every figure against the simulated partner's latency model by
 * sampling, so the two cannot drift apart.
 */
public final class PartnerTypicalTime {
  private static final int[] SLOWEST_OF_SECONDS = {48, 58, 65, 72, 78, 84, 89, 94, 99, 103};
  /** Records a round runs side by side: an SQS batch holds at most ten. */
  public static final int MOST_SIDE_BY_SIDE = SLOWEST_OF_SECONDS.length;

  private PartnerTypicalTime() {}

  /** The expected slowest of {@code orders} orders (1 to 10) booked side by side, each a lookup then a booking. */
  public static Duration slowestOf(int orders) {
    if (orders < 1 || orders > MOST_SIDE_BY_SIDE) {
      throw new IllegalArgumentException("a round runs 1 to " + MOST_SIDE_BY_SIDE + " orders side by side, not " + orders);
    }
    return Duration.ofSeconds(SLOWEST_OF_SECONDS[orders - 1]);
  }
}
