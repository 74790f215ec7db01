package com.acme.fulfil.queue;

import com.acme.fulfil.contract.records.OrderLogFields;
import com.acme.fulfil.contract.timing.RetrySchedule;
import com.acme.fulfil.fulfilment.NextTry;
import com.acme.fulfil.fulfilment.OrderFulfilment;
import com.acme.fulfil.fulfilment.RecordOutcome;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** How long a failed record's message waits, from its try's {@link NextTry} by the deployed {@link RetrySchedule}. */
public final class RetryWaits {
  private static final Logger LOG = LoggerFactory.getLogger(RetryWaits.class);
  private final RetrySchedule schedule;
  private final Clock clock;
  private final RandomGenerator random;

  /** @param random for the jitter; one that a SnapStart restore does not replay ({@code SecureRandom}) */
  public RetryWaits(RetrySchedule schedule, Clock clock, RandomGenerator random) {
    this.schedule = schedule;
    this.clock = clock;
    this.random = random;
  }

  /** {@link #waitFor}, logged with the moment as {@value OrderLogFields#NEXT_TRY_AT} for {@code fulfil-ops order}. */
  public Optional<Duration> announce(SQSMessage message, RecordOutcome outcome) {
    Optional<Duration> wait = waitFor(message, outcome);
    if (outcome.failed()) {
      wait.ifPresentOrElse(w -> {
        try (var field = MDC.putCloseable(OrderLogFields.NEXT_TRY_AT, clock.instant().plus(w).toString())) {
          LOG.info("the message returns in {} s", String.format(java.util.Locale.ROOT, "%.1f", w.toMillis() / 1000.0));
        }
      }, () -> LOG.info("the message returns when the queue's visibility timeout ends"));
    }
    return wait;
  }

  /** The wait for a failed record's message; empty when it keeps the queue's visibility timeout. */
  public Optional<Duration> waitFor(SQSMessage message, RecordOutcome outcome) {
    return switch (outcome) {
      case RecordOutcome.Done done -> Optional.empty();
      // Never bookable, and the DLQ send failed: back at once, for the next receive to send it again (a partner's
      // rejection without a partner call) or, after its last, for the redrive policy.
      case RecordOutcome.Rejected rejected -> Optional.of(Duration.ZERO);
      case RecordOutcome.Retry retry -> waitFor(OrderFulfilment.receiveCount(message), retry.next());
      case RecordOutcome.InProgressElsewhere held -> waitFor(OrderFulfilment.receiveCount(message), held.next());
    };
  }

  private Optional<Duration> waitFor(int receiveCount, NextTry next) {
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
