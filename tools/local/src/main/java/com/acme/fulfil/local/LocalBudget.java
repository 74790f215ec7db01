package com.acme.fulfil.local;

import com.acme.fulfil.contract.timing.TimingBudget;
import java.time.Duration;

/**
 * A deployed {@link TimingBudget} as the local run plays it: every duration divided by the time scale,
 * except where real work must fit, which a faster clock does not make faster. A try's claim, its lookup
 * and its first HTTP connection take the same milliseconds at any scale (more on a cold JVM, with
 * several configurations sharing two cores), so the lookup timeout and the deadline margin kept around
 * the partner call are never below {@link #REAL_WORK}, and the function's time to spare beyond them and
 * the partner's worst case never below {@link #COLD_TRY}; the function timeout grows to hold them and the
 * visibility timeout follows it, so the scaled budget passes the same checks as the deployed one.
 *
 * <p>Without the floor, 1/30 leaves a 167 ms lookup and 167 ms to spare: a healthy partner's first tries
 * failed for lack of time, which the deployed function never does.
 */
public final class LocalBudget {
  /** What a cold try's claim, lookup and connection set-up take locally, whatever the scale. */
  public static final Duration REAL_WORK = Duration.ofSeconds(1);
  /**
   * The spare a try's claim and set-up eat before its booking may start: a freshly started environment's
   * first claim and lookup took up to 3.1 s with two configurations' environments busy on shared cores.
   */
  public static final Duration COLD_TRY = Duration.ofSeconds(3);

  private LocalBudget() {}

  public static TimingBudget of(TimingBudget deployed, TimeScale scale) {
    TimingBudget scaled = deployed.scaledDown(scale.divisor());
    Duration lookupTimeout = atLeast(scaled.partnerLookupTimeout(), REAL_WORK);
    Duration margin = atLeast(scaled.partnerDeadlineMargin(), REAL_WORK);
    Duration rounds = lookupTimeout.plus(scaled.partnerWorstCase()).plus(margin).multipliedBy(scaled.sequentialRounds());
    Duration functionTimeout = atLeast(scaled.functionTimeout(), wholeSecondsUp(rounds.plus(COLD_TRY)));
    Duration visibility = atLeast(scaled.visibilityTimeout(),
        functionTimeout.multipliedBy(TimingBudget.VISIBILITY_FACTOR).plus(scaled.batchingWindow()));
    return new TimingBudget(scaled.partnerWorstCase(), scaled.partnerContractMaximum(), scaled.clockSkewAllowance(),
        lookupTimeout, margin, functionTimeout, scaled.batchingWindow(), scaled.batchSize(), scaled.recordConcurrency(),
        visibility, scaled.maxReceiveCount(), scaled.retrySchedule(), scaled.retryHorizon(), scaled.sourceRetention(),
        scaled.dlqRetention(), scaled.idempotencyTtl());
  }

  private static Duration wholeSecondsUp(Duration d) {
    long seconds = d.toSeconds();
    return Duration.ofSeconds(d.equals(Duration.ofSeconds(seconds)) ? seconds : seconds + 1);
  }

  private static Duration atLeast(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
