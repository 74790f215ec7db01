package com.acme.fulfil.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PartnerPaceTest {

  /** The incident's landmarks as fixed latencies. */
  private static final LatencyModel LANDMARKS = new LatencyModel() {
    @Override
    public Duration booking(RandomGenerator random) {
      return Duration.ofSeconds(40);
    }

    @Override
    public Duration degradedBooking(RandomGenerator random) {
      return Duration.ofSeconds(280);
    }

    @Override
    public Duration lookup(RandomGenerator random) {
      return Duration.ofMillis(1500);
    }
  };

  @Test
  void localRunDivisorTurnsPartnerTimeIntoRealTime() {
    PartnerPace pace = new PartnerPace(LANDMARKS, 30, 1);

    assertThat(pace.booking(PartnerMode.HEALTHY).toMillis()).isEqualTo(1333);
    assertThat(pace.booking(PartnerMode.DEGRADED).toMillis()).isEqualTo(9333);
    assertThat(pace.lookup()).isEqualTo(Duration.ofMillis(50));
  }

  @Test
  void divisorBelowOneIsRefused() {
    assertThatThrownBy(() -> new PartnerPace(LANDMARKS, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeScaleDivisor");
  }

  @Test
  void chanceFollowsTheShare() {
    PartnerPace pace = new PartnerPace(LANDMARKS, 1, 3);

    long failures = IntStream.range(0, 10_000).filter(i -> pace.chance(0.2)).count();

    assertThat(failures).isBetween(1_800L, 2_200L);
    assertThat(pace.chance(0)).isFalse();
    assertThat(pace.chance(1)).isTrue();
  }
}
