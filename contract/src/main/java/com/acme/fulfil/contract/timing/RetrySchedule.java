package com.acme.fulfil.contract.timing;

import com.acme.fulfil.contract.sqs.SqsLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * When a message whose try failed comes back, by what the try knew: the function sets the message's
 * visibility from this before it reports the failure.
 *
 * <p>Every wait an order can get on its n-th receive is at least {@link #shortestWait(int)}: a failure
 * nothing was said about waits the backoff less at most the jitter; a 429 the larger of its
 * {@code Retry-After} and the backoff; an order locked by a try that may still book waits for the
 * lock's end, and at least the backoff; a try Lambda kills, or one nothing explains, keeps the queue's
 * visibility timeout, which is never shorter than the longest backoff. So the receives an order needs to
 * reach the DLQ follow from the shortest waits alone ({@link #receivesFor}).
 *
 * @param firstBackoff the backoff after a first receive; it doubles with every receive after it
 * @param longestBackoff where the doubling stops, and the most a 429's {@code Retry-After} is honoured for
 * @param jitterPercent how much of a backoff is taken off at random, so that the invocations that failed
 *     together do not return together; added to a 429's wait instead, which must not come back early
 * @param afterLock waited past the end of another try's lock: the lock's end is by the clock of the
 *     Lambda host that wrote it, the next claim is judged by another's
 */
public record RetrySchedule(Duration firstBackoff, Duration longestBackoff, int jitterPercent, Duration afterLock) {
  /**
   * The most of a backoff the jitter may take off: every wait stays at least half its backoff, so the receives
   * derived from the shortest waits ({@link #receivesFor}) stay near those of the backoffs themselves. At 100 a wait
   * could be nothing and no number of receives would keep an order retrying for a horizon.
   */
  public static final int MAX_JITTER_PERCENT = 50;
  /** A receive count beyond which the doubling has long reached any longest backoff SQS could take (12 h). */
  private static final int DOUBLINGS = 40;

  /**
   * Refuses a schedule no failed try could keep: a backoff is set as the message's visibility, which SQS takes
   * only up to {@link SqsLimits#MAX_VISIBILITY}, and a schedule whose waits could be zero or negative returns an
   * order at once.
   */
  public RetrySchedule {
    Objects.requireNonNull(firstBackoff, "firstBackoff");
    Objects.requireNonNull(longestBackoff, "longestBackoff");
    Objects.requireNonNull(afterLock, "afterLock");
    List<String> broken = new ArrayList<>();
    if (!firstBackoff.isPositive()) {
      broken.add("its first backoff must be positive, got " + DurationText.show(firstBackoff));
    }
    if (longestBackoff.compareTo(firstBackoff) < 0 || longestBackoff.compareTo(SqsLimits.MAX_VISIBILITY) > 0) {
      broken.add("its longest backoff must be from its first (" + DurationText.show(firstBackoff) + ") to SQS's longest"
          + " visibility timeout (" + DurationText.show(SqsLimits.MAX_VISIBILITY) + "), got " + DurationText.show(longestBackoff));
    }
    if (jitterPercent < 0 || jitterPercent > MAX_JITTER_PERCENT) {
      broken.add("its jitter must take off 0-" + MAX_JITTER_PERCENT + "% at random, got " + jitterPercent + "%");
    }
    if (afterLock.isNegative()) {
      broken.add("its wait after a lock must not be negative, got " + DurationText.show(afterLock));
    }
    if (!broken.isEmpty()) {
      throw new IllegalArgumentException("not a retry schedule: " + String.join("; ", broken) + ".");
    }
  }

  /** The backoff of the {@code receiveCount}-th receive (1 for the first), before jitter. */
  public Duration backoff(int receiveCount) {
    int doublings = Math.max(0, receiveCount - 1);
    if (doublings >= DOUBLINGS) {
      return longestBackoff;
    }
    Duration doubled = firstBackoff.multipliedBy(1L << doublings);
    return doubled.compareTo(longestBackoff) < 0 ? doubled : longestBackoff;
  }

  /** The shortest wait any failed try of the {@code receiveCount}-th receive can get: its backoff less the whole jitter. */
  public Duration shortestWait(int receiveCount) {
    return backoff(receiveCount).multipliedBy(100 - jitterPercent).dividedBy(100);
  }

  /** The shortest an order that fails its first {@code receives} receives keeps retrying. */
  public Duration shortestRetrying(int receives) {
    Duration total = Duration.ZERO;
    for (int n = 1; n <= receives; n++) {
      total = total.plus(shortestWait(n));
    }
    return total;
  }

  /**
   * How long, on average, an order that fails its first {@code receives} receives fast keeps retrying:
   * each backoff less half its jitter, the mean of what is taken off at random.
   */
  public Duration meanRetrying(int receives) {
    Duration total = Duration.ZERO;
    for (int n = 1; n <= receives; n++) {
      total = total.plus(backoff(n).multipliedBy(200 - jitterPercent).dividedBy(200));
    }
    return total;
  }

  /**
   * The fewest receives after which an order whose every try fails has retried for at least
   * {@code horizon}; more than {@value SqsLimits#MAX_RECEIVE_COUNT} (SQS's most: receives beyond it are never reached) when not even that many do it.
   */
  public int receivesFor(Duration horizon) {
    Duration total = Duration.ZERO;
    int receives = 0;
    while (total.compareTo(horizon) < 0 && receives <= SqsLimits.MAX_RECEIVE_COUNT) {
      receives++;
      total = total.plus(shortestWait(receives));
    }
    return receives;
  }

  /** The backoffs of receives 1 to {@code receives}, for the schedule synth prints. */
  public List<Duration> backoffs(int receives) {
    List<Duration> backoffs = new ArrayList<>();
    for (int n = 1; n <= receives; n++) {
      backoffs.add(backoff(n));
    }
    return List.copyOf(backoffs);
  }

  RetrySchedule scaledDown(int divisor) {
    return new RetrySchedule(firstBackoff.dividedBy(divisor), longestBackoff.dividedBy(divisor), jitterPercent,
        afterLock.dividedBy(divisor));
  }
}
