package com.acme.fulfil.queue;

import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.contract.records.OrderLogFields;
import com.acme.fulfil.fulfilment.ReceivedMessage;
import com.acme.fulfil.fulfilment.RecordOutcome;
import com.acme.fulfil.observability.FulfilmentMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * What SQS is told about each message, from what its try came to: the one place that decides it. A message that can
 * never succeed goes to the DLQ and counts as done; every other failed one is a batch item failure, back when its
 * try said ({@link RetryWaits}) or, with nothing to go on, when the queue's visibility timeout ends.
 */
public final class AcknowledgementPolicy {
  private static final Logger LOG = LoggerFactory.getLogger(AcknowledgementPolicy.class);

  public sealed interface Decision {}
  /** Done: not a batch item failure, so the mapping deletes it. */
  public record Delete() implements Decision {}
  /** Never bookable: to the DLQ now, then {@link #afterDeadLetter}. */
  public record DeadLetterNow(RecordOutcome.Rejected rejected) implements Decision {}
  /** A batch item failure: the message stays on the queue. */
  public sealed interface Return extends Decision {}
  public record ReturnAfter(Duration after) implements Return {}
  public record ReturnAtTimeout() implements Return {}

  private final RetryWaits waits;
  private final FulfilmentMetrics metrics;
  private final int maxReceiveCount;
  private final Clock clock;

  public AcknowledgementPolicy(RetryWaits waits, FulfilmentMetrics metrics, int maxReceiveCount, Clock clock) {
    this.waits = waits;
    this.metrics = metrics;
    this.maxReceiveCount = maxReceiveCount;
    this.clock = clock;
  }

  /** Decided in the record's own thread, whose log lines carry its order id: on-call finds the next try there. */
  public Decision decide(ReceivedMessage message, RecordOutcome outcome) {
    return switch (outcome) {
      case RecordOutcome.Done done -> new Delete();
      case RecordOutcome.Rejected rejected -> new DeadLetterNow(rejected);
      case RecordOutcome.Retry retry -> returning(message, announced(waits.waitFor(message.receiveCount(), retry.next())));
      case RecordOutcome.InProgressElsewhere held ->
          returning(message, announced(waits.waitFor(message.receiveCount(), held.next())));
    };
  }

  /**
   * In the DLQ with its reason: the mapping deletes it from the source. Else back at once, for the next receive to
   * send it again (a partner's rejection without a partner call, {@link DeadLetters}) or, after its last, for the
   * redrive policy.
   */
  public Decision afterDeadLetter(ReceivedMessage message, boolean sent) {
    if (sent) {
      metrics.count(MetricNames.DEAD_LETTERED); // the DLQ alarm reads this count
      return new Delete();
    }
    return returning(message, new ReturnAfter(Duration.ZERO));
  }

  private Return returning(ReceivedMessage message, Return back) {
    if (message.receiveCount() >= maxReceiveCount) {
      // No receive is left: SQS moves the message to the DLQ instead of handing it out again.
      metrics.count(MetricNames.DEAD_LETTERED);
    }
    return back;
  }

  /** Logged with the moment as {@value OrderLogFields#NEXT_TRY_AT} for {@code fulfil-ops order}. */
  private Return announced(Optional<Duration> wait) {
    if (wait.isEmpty()) {
      LOG.info("the message returns when the queue's visibility timeout ends");
      return new ReturnAtTimeout();
    }
    try (var field = MDC.putCloseable(OrderLogFields.NEXT_TRY_AT, clock.instant().plus(wait.get()).toString())) {
      LOG.info("the message returns in {} s", String.format(Locale.ROOT, "%.1f", wait.get().toMillis() / 1000.0));
    }
    return new ReturnAfter(wait.get());
  }
}
