package com.acme.fulfil.queue;

import com.acme.fulfil.fulfilment.NextTry;
import com.acme.fulfil.fulfilment.OrderFulfilment;
import com.acme.fulfil.fulfilment.RecordOutcome;
import com.acme.fulfil.contract.OrderLogFields;
import com.acme.fulfil.contract.RetrySchedule;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * How long a failed record's message waits before it returns, from what its try knew
 * ({@link NextTry}) and the {@link RetrySchedule} the stack deployed. Every wait is at least the
 * schedule's shortest for the message's receive count, so an order keeps retrying for the horizon
 * maxReceiveCount was derived from; none returns a message while a try that may still book its order
 * holds the lock.
 */
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

  /**
   * {@link #waitFor}, said in the record's log line with the moment as {@value OrderLogFields#NEXT_TRY_AT}
   * (a field on-call's {@code ./fulfil-ops order} reads): a failed try's next try is the first thing
   * on-call asks about an order that has not been booked yet.
   */
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
      // Never bookable: back for the redrive policy at once (only when the function's own DLQ send failed).
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
      // At least what the partner asked, spread upwards so that the tries it refused together do not all
      // return together; never beyond the longest backoff, however long it asked for.
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
