package com.acme.fulfil.local.scenario;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The stack's {@code orders-to-fulfil-backlog} alarm, played on a local run's samples of the queue: it
 * fires when the fewest messages waiting (visible) during one whole period were above the threshold,
 * as CloudWatch's Minimum over a five-minute period does. Times are local.
 */
final class BacklogAlarm {
  private final long threshold;
  private final Duration period;
  private final Deque<Sample> window = new ArrayDeque<>();
  private Duration firstSample;
  private Optional<Duration> firedAt = Optional.empty();
  private int mostWaiting;

  /** @param period the alarm's five minutes, in local time */
  BacklogAlarm(long threshold, Duration period) {
    this.threshold = threshold;
    this.period = period;
  }

  synchronized void sample(Duration elapsed, int waiting) {
    if (firstSample == null) {
      firstSample = elapsed;
    }
    mostWaiting = Math.max(mostWaiting, waiting);
    window.addLast(new Sample(elapsed, waiting));
    while (window.peekFirst().at().compareTo(elapsed.minus(period)) < 0) {
      window.removeFirst();
    }
    boolean wholePeriodSeen = elapsed.minus(firstSample).compareTo(period) >= 0;
    if (firedAt.isEmpty() && wholePeriodSeen && window.stream().allMatch(s -> s.waiting() > threshold)) {
      firedAt = Optional.of(elapsed);
    }
  }

  long threshold() {
    return threshold;
  }

  synchronized Optional<Duration> firedAt() {
    return firedAt;
  }

  synchronized int mostWaiting() {
    return mostWaiting;
  }

  private record Sample(Duration at, int waiting) {}
}
