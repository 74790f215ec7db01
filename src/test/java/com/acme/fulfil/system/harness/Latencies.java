package com.acme.fulfil.system.harness;

import com.acme.fulfil.sim.LatencyModel;
import java.time.Duration;
import java.util.random.RandomGenerator;

/** Partner latencies, in partner time (the simulated partner divides them by its time scale). */
public final class Latencies {
  private static final Duration LOOKUP_FROM = Duration.ofMillis(200);
  private static final Duration LOOKUP_TO = Duration.ofMillis(1500);

  private Latencies() {}

  /**
   * Every booking anywhere from 30 to 300 s, evenly: the whole range the incident saw, including the
   * calls beyond the 280 s the design budgets for, which overrun the function's deadline.
   */
  public static LatencyModel spreadOverTheIncidentsRange() {
    return new Spread(Duration.ofSeconds(30), Duration.ofSeconds(300));
  }

  /**
   * The incident's shape ({@link LatencyModel#incident()}), except that a share of bookings takes from
   * {@code overrunFrom} to {@code overrunTo}: longer than the function will wait.
   */
  public static LatencyModel incidentWithOverruns(double overrunShare, Duration overrunFrom, Duration overrunTo) {
    return new WithOverruns(LatencyModel.incident(), overrunShare, new Spread(overrunFrom, overrunTo));
  }

  private static Duration between(RandomGenerator random, Duration from, Duration to) {
    return Duration.ofNanos(random.nextLong(from.toNanos(), to.toNanos() + 1));
  }

  private record Spread(Duration from, Duration to) implements LatencyModel {
    @Override
    public Duration booking(RandomGenerator random) {
      return between(random, from, to);
    }

    @Override
    public Duration degradedBooking(RandomGenerator random) {
      return booking(random);
    }

    @Override
    public Duration lookup(RandomGenerator random) {
      return between(random, LOOKUP_FROM, LOOKUP_TO);
    }
  }

  private record WithOverruns(LatencyModel usual, double share, Spread overrun) implements LatencyModel {
    @Override
    public Duration booking(RandomGenerator random) {
      return random.nextDouble() < share ? overrun.booking(random) : usual.booking(random);
    }

    @Override
    public Duration degradedBooking(RandomGenerator random) {
      return random.nextDouble() < share ? overrun.booking(random) : usual.degradedBooking(random);
    }

    @Override
    public Duration lookup(RandomGenerator random) {
      return usual.lookup(random);
    }
  }
}
