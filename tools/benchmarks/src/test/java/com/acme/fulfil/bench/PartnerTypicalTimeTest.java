package com.acme.fulfil.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.acme.fulfil.contract.timing.PartnerTypicalTime;
import com.acme.fulfil.sim.LatencyModel;
import org.junit.jupiter.api.Test;

/**
 * Capacity's figure for a round of a batch (the contract module, which knows no simulator) is what the
 * simulated partner's latency model gives: the slowest of n orders side by side, sampled.
 */
class PartnerTypicalTimeTest {
  private static final int SAMPLES = 100_000;
  /** The figures are whole seconds, and the one-order figure is the stack's long-standing 48 s (shape: 48.6 s). */
  private static final double TOLERANCE = 0.02;

  @Test
  void timingsSlowestOfNIsTheSimulatedPartnersWithinItsRounding() {
    SampledRound rounds = new SampledRound(LatencyModel.incident(), false, 42);
    for (int orders = 1; orders <= PartnerTypicalTime.MOST_SIDE_BY_SIDE; orders++) {
      double sampled = rounds.meanSlowestSeconds(orders, SAMPLES);
      assertThat((double) PartnerTypicalTime.slowestOf(orders).toSeconds())
          .as("the slowest of %d orders side by side: the contract's figure against %.2f s sampled", orders, sampled)
          .isCloseTo(sampled, within(sampled * TOLERANCE));
    }
  }

  @Test
  void aRoundOfTenTakesAboutTwiceOneOrdersTime() {
    SampledRound rounds = new SampledRound(LatencyModel.incident(), false, 7);
    assertThat(rounds.meanSlowestSeconds(10, SAMPLES) / rounds.meanSlowestSeconds(1, SAMPLES)).isBetween(2.0, 2.3);
  }
}
