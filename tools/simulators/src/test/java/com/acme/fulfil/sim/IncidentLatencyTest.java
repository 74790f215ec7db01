package com.acme.fulfil.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Statistics over seeded samples: the shape of the incident, not the passing of time. */
class IncidentLatencyTest {

  private static final int SAMPLES = 10_000;

  private final LatencyModel incident = LatencyModel.incident();

  @Test
  void healthyBookingsPeakNearFortySecondsWithATailOutToTwoHundredEighty() {
    double[] seconds = sample(incident::booking);

    assertThat(percentile(seconds, 50)).isCloseTo(40, within(2.0));
    assertThat(seconds[0]).isGreaterThanOrEqualTo(30);
    assertThat(seconds[SAMPLES - 1]).isLessThanOrEqualTo(280).isGreaterThan(200);
    assertThat(shareBetween(seconds, 30, 60)).isBetween(0.88, 0.96);
    assertThat(shareBetween(seconds, 120, 280)).isBetween(0.03, 0.06);
    assertThat(percentile(seconds, 99)).isGreaterThan(150);
  }

  @Test
  void degradedBookingsAllComeFromTheTail() {
    double[] seconds = sample(incident::degradedBooking);

    assertThat(seconds[0]).isGreaterThanOrEqualTo(60);
    assertThat(seconds[SAMPLES - 1]).isLessThanOrEqualTo(280);
    // Median of the falling triangle on [60, 280]: 280 - 220 / sqrt(2) = 124.4 s.
    assertThat(percentile(seconds, 50)).isCloseTo(124.4, within(5.0));
  }

  @Test
  void lookupsStayUnderTwoSeconds() {
    double[] seconds = sample(incident::lookup);

    assertThat(seconds[0]).isGreaterThanOrEqualTo(0.2);
    assertThat(seconds[SAMPLES - 1]).isLessThan(2);
  }

  @Test
  void sameSeedDrawsTheSameLatencies() {
    assertThat(sample(incident::booking, new SplittableRandom(7)))
        .containsExactly(sample(incident::booking, new SplittableRandom(7)));
  }

  private static double[] sample(Function<RandomGenerator, Duration> draw) {
    return sample(draw, new SplittableRandom(42));
  }

  private static double[] sample(Function<RandomGenerator, Duration> draw, RandomGenerator random) {
    return IntStream.range(0, SAMPLES).mapToDouble(i -> draw.apply(random).toNanos() / 1e9).sorted().toArray();
  }

  private static double percentile(double[] sorted, int percent) {
    return sorted[Math.min(sorted.length - 1, sorted.length * percent / 100)];
  }

  private static double shareBetween(double[] seconds, double low, double high) {
    return Arrays.stream(seconds).filter(s -> s >= low && s <= high).count() / (double) seconds.length;
  }
}
