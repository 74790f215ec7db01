package com.acme.fulfil.queue;

import com.acme.fulfil.contract.timing.RetrySchedule;
import com.acme.fulfil.fulfilment.NextTry;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.random.RandomGenerator;

/** How long a failed record's message waits, from its try's {@link NextTry} by the deployed {@link RetrySchedule}. */
public final class RetryWaits {
  private final RetrySchedule schedule;
  private final Clock clock;
  private final RandomGenerator random;

  /** @param random for the jitter; one that a SnapStart restore does not replay ({@code SecureRandom}) */
  public RetryWaits(RetrySchedule schedule, Clock clock, RandomGenerator random) {
    this.schedule = schedule;
    this.clock = clock;
    this.random = random;
  }

  /** The wait for a failed try's message on its {@code receiveCount}th receive; empty: the queue's visibility timeout. */
  public Optional<Duration> waitFor(int receiveCount, NextTry next) {
    Duration backoff = schedule.backoff(receiveCount);
    double jitter = random.nextDouble() * schedule.jitterPercent() / 100;
    Duration jitteredBackoff = times(backoff, 1 - jitter);
    return switch (next) {
      case NextTry.Backoff b -> Optional.of(jitteredBackoff);
      case NextTry.PartnerAsked asked -> Optional.of(atMost(schedule.longestBackoff(),
          times(atLeast(backoff, asked.retryAfter()), 1 + jitter)));
      case NextTry.AfterLock lock -> Optional.of(atLeast(jitteredBackoff,
          Duration.between(clock.instant(), lock.lockEnd().plus(schedule.afterLock()))));
      case NextTry.QueueTimeout q -> Optional.empty();
    };
  }

  private static Duration times(Duration d, double factor) {
    return Duration.ofNanos((long) (d.toNanos() * factor));
  }

  private static Duration atLeast(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static Duration atMost(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
