package com.acme.fulfil.contract.timing;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.contract.settings.Settings;
import com.acme.fulfil.contract.sqs.SqsLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The numbers of the orders-to-fulfil design that only work together, in one value.
 *
 * <p>The incident came from three numbers chosen one at a time: a 30 s visibility timeout, a 300 s
 * function and a partner that takes up to 280 s. Every number here is either derived from the others
 * or checked against them when the value is built, so an inconsistent set fails {@code cdk synth}
 * (and the local run) with a sentence that names the number, the reason and a valid value.
 *
 * <p>Setting names are the CDK context keys ({@code cdk deploy -c functionTimeoutSeconds=600}).
 */
public record TimingBudget(
    Duration partnerWorstCase,
    Duration partnerContractMaximum,
    Duration clockSkewAllowance,
    Duration partnerLookupTimeout,
    Duration partnerDeadlineMargin,
    Duration functionTimeout,
    Duration batchingWindow,
    int batchSize,
    int recordConcurrency,
    Duration visibilityTimeout,
    int maxReceiveCount,
    RetrySchedule retrySchedule,
    Duration retryHorizon,
    Duration sourceRetention,
    Duration dlqRetention,
    Duration idempotencyTtl) {

  /** AWS: "set the source queue's visibility timeout to at least six times the function timeout". */
  public static final int VISIBILITY_FACTOR = 6;
  /** The partner's contract (docs/partner-api.md): a booking can appear up to 300 s after its POST. */
  public static final Duration PARTNER_CONTRACT_MAXIMUM = Duration.ofSeconds(300);
  /** How far our clock and the partner's may disagree: the late-booking hold adds it to the contract's maximum. */
  public static final Duration CLOCK_SKEW_ALLOWANCE = Duration.ofSeconds(5);
  /** Time left, after both retentions, for a person to decide on a redrive. */
  public static final Duration TTL_BUFFER = Duration.ofDays(3);
  /** The period of the stack's alarms: each compares one 5-minute statistic with its threshold. */
  public static final Duration ALARM_PERIOD = Duration.ofMinutes(5);

  /**
   * How long before the source retention deletes a message the longest retry life must end: the redrive
   * policy moves a message only when it is next received, and SQS's timing is approximate.
   */
  static final Duration RETENTION_MARGIN = Duration.ofMinutes(10);
  /**
   * SQS's ApproximateAgeOfOldestMessage leaves out a message received three or more times: it ages a
   * message over its first two receives only.
   */
  public static final int RECEIVES_SQS_AGES = 2;

  static final Duration LAMBDA_MAX_TIMEOUT = Duration.ofSeconds(900);
  static final Duration ESM_MAX_BATCHING_WINDOW = Duration.ofSeconds(300);
  static final int ESM_MAX_BATCH_SIZE = 10;

  public TimingBudget {
    Objects.requireNonNull(partnerWorstCase, "partnerWorstCase");
    Objects.requireNonNull(partnerContractMaximum, "partnerContractMaximum");
    Objects.requireNonNull(clockSkewAllowance, "clockSkewAllowance");
    Objects.requireNonNull(partnerLookupTimeout, "partnerLookupTimeout");
    Objects.requireNonNull(partnerDeadlineMargin, "partnerDeadlineMargin");
    Objects.requireNonNull(functionTimeout, "functionTimeout");
    Objects.requireNonNull(batchingWindow, "batchingWindow");
    Objects.requireNonNull(visibilityTimeout, "visibilityTimeout");
    Objects.requireNonNull(retrySchedule, "retrySchedule");
    Objects.requireNonNull(retryHorizon, "retryHorizon");
    Objects.requireNonNull(sourceRetention, "sourceRetention");
    Objects.requireNonNull(dlqRetention, "dlqRetention");
    Objects.requireNonNull(idempotencyTtl, "idempotencyTtl");

    List<String> problems = new ArrayList<>();
    if (!partnerWorstCase.isPositive() || !partnerDeadlineMargin.isPositive()) {
      problems.add("partnerWorstCaseSeconds and partnerDeadlineMarginSeconds must be positive (got "
          + DurationText.show(partnerWorstCase) + " and " + DurationText.show(partnerDeadlineMargin) + ").");
    }
    if (!partnerLookupTimeout.isPositive() || clockSkewAllowance.isNegative()) {
      problems.add("partnerLookupTimeoutSeconds must be positive and the clock-skew allowance not negative (got "
          + DurationText.show(partnerLookupTimeout) + " and " + DurationText.show(clockSkewAllowance) + ").");
    }
    if (partnerWorstCase.compareTo(partnerContractMaximum) > 0) {
      problems.add("partnerWorstCaseSeconds is " + DurationText.show(partnerWorstCase) + " but the partner's contract promises an answer"
          + " within " + DurationText.show(partnerContractMaximum) + "; a try never waits longer than the contract allows.");
    }
    if (batchSize < 1 || batchSize > ESM_MAX_BATCH_SIZE) {
      problems.add("batchSize is " + batchSize + " but must be from 1 to " + ESM_MAX_BATCH_SIZE
          + ": the function processes a batch inside one invocation and its timing rules assume at most ten records.");
    }
    if (recordConcurrency < 1) {
      problems.add("recordConcurrency is " + recordConcurrency + " but must be at least 1.");
    }
    if (!isWholeSeconds(functionTimeout) || functionTimeout.compareTo(LAMBDA_MAX_TIMEOUT) > 0 || !functionTimeout.isPositive()) {
      problems.add("functionTimeoutSeconds is " + DurationText.show(functionTimeout)
          + " but Lambda only accepts a whole number of seconds from 1 to 900.");
    }
    int rounds = batchSize < 1 || recordConcurrency < 1 ? 1 : ceilDiv(batchSize, recordConcurrency);
    // Each record looks its order up before its first booking request, and the function's CallWindow
    // keeps the margin back for every record (the claim before its call, the record after it). A record
    // waiting for a slot starts only when one of the round before has recorded its outcome, so every
    // round costs all three.
    Duration round = partnerLookupTimeout.plus(partnerWorstCase).plus(partnerDeadlineMargin);
    Duration busiestInvocation = round.multipliedBy(rounds);
    if (functionTimeout.compareTo(busiestInvocation) <= 0) {
      String why = rounds == 1
          ? "each order is looked up first (up to " + DurationText.show(partnerLookupTimeout) + "), a partner call may take "
              + DurationText.show(partnerWorstCase) + " and the handler needs " + DurationText.show(partnerDeadlineMargin)
              + " around it to claim the order and record the outcome"
          : "a batch of " + batchSize + " at recordConcurrency " + recordConcurrency + " runs " + rounds
              + " rounds one after another, each of them an order's lookup (up to " + DurationText.show(partnerLookupTimeout)
              + "), a partner call of up to " + DurationText.show(partnerWorstCase) + " and " + DurationText.show(partnerDeadlineMargin)
              + " to claim the order and record the outcome";
      problems.add("functionTimeoutSeconds is " + DurationText.show(functionTimeout) + " but must be longer than "
          + DurationText.show(busiestInvocation) + ": " + why + ". Raise functionTimeoutSeconds (at most 900)"
          + (rounds == 1 ? "" : ", raise recordConcurrency to " + batchSize + ", or lower batchSize")
          + ", or lower partnerWorstCaseSeconds if the partner really got faster.");
    }
    if (!isWholeSeconds(batchingWindow) || batchingWindow.isNegative()
        || batchingWindow.compareTo(ESM_MAX_BATCHING_WINDOW) > 0) {
      problems.add("batchingWindowSeconds is " + DurationText.show(batchingWindow)
          + " but the event source mapping only accepts a whole number of seconds from 0 to 300.");
    }
    Duration minimumVisibility = functionTimeout.multipliedBy(VISIBILITY_FACTOR).plus(batchingWindow);
    if (visibilityTimeout.compareTo(minimumVisibility) < 0) {
      problems.add("visibilityTimeoutSeconds is " + DurationText.show(visibilityTimeout) + " but must be at least "
          + VISIBILITY_FACTOR + " x functionTimeoutSeconds (" + DurationText.show(functionTimeout)
          + ") + batchingWindowSeconds (" + DurationText.show(batchingWindow) + ") = " + DurationText.show(minimumVisibility)
          + ": with less, SQS hands a message that is still being processed to a second invocation"
          + " and the partner books a second courier (the orders-to-fulfil incident).");
    }
    if (!isWholeSeconds(visibilityTimeout) || visibilityTimeout.compareTo(SqsLimits.MAX_VISIBILITY) > 0) {
      problems.add("visibilityTimeoutSeconds is " + DurationText.show(visibilityTimeout)
          + " but SQS only accepts whole seconds up to " + SqsLimits.MAX_VISIBILITY.toSeconds() + " (12 h); lower functionTimeoutSeconds instead.");
    }
    if (maxReceiveCount < 2 || maxReceiveCount > SqsLimits.MAX_RECEIVE_COUNT) {
      problems.add("maxReceiveCount is " + maxReceiveCount + " but must be from 2 to " + SqsLimits.MAX_RECEIVE_COUNT + ": at 1 a single"
          + " transient failure (a partner 503, a throttled invocation) sends a good order to the DLQ. Leave it unset:"
          + " it is derived from retryHorizonSeconds and the retry schedule.");
    }
    if (!isWholeSeconds(sourceRetention) || sourceRetention.compareTo(Duration.ofMinutes(1)) < 0
        || sourceRetention.compareTo(SqsLimits.MAX_RETENTION) > 0
        || !isWholeSeconds(dlqRetention) || dlqRetention.compareTo(SqsLimits.MAX_RETENTION) > 0) {
      problems.add("sourceRetentionDays and dlqRetentionDays must be whole seconds from 1 minute to 14 days (got "
          + DurationText.show(sourceRetention) + " and " + DurationText.show(dlqRetention) + ").");
    }
    if (visibilityTimeout.compareTo(minimumVisibility) >= 0 && maxReceiveCount >= 2) {
      // The schedule follows the visibility timeout and the receives: checked once they stand.
      problems.addAll(retryProblems(retrySchedule, retryHorizon, maxReceiveCount, visibilityTimeout,
          functionTimeout.plus(partnerContractMaximum).plus(clockSkewAllowance)));
    }
    if (visibilityTimeout.isPositive() && maxReceiveCount >= 2 && sourceRetention.isPositive()) {
      Duration horizon = visibilityTimeout.multipliedBy(maxReceiveCount);
      Duration deletedAt = sourceRetention.minus(RETENTION_MARGIN);
      if (horizon.compareTo(deletedAt) > 0) {
        long fittingReceives = deletedAt.toSeconds() / visibilityTimeout.toSeconds();
        problems.add("the longest retry life (visibilityTimeoutSeconds " + DurationText.show(visibilityTimeout) + " x maxReceiveCount "
            + maxReceiveCount + " = " + horizon.toSeconds() + " s, every try killed) must end at least "
            + DurationText.show(RETENTION_MARGIN) + " before sourceRetentionDays ("
            + DurationText.show(sourceRetention) + ") deletes a message, at " + sourceRetention.toSeconds() + " s: SQS deletes an order"
            + " still retrying when its retention ends, without moving it to the DLQ. "
            + (fittingReceives >= 2 ? "Lower maxReceiveCount to at most " + fittingReceives
                + " (and retryHorizonSeconds with it), raise" : "Raise")
            + " sourceRetentionDays (at most 14 days), or lower the visibility timeout (it follows functionTimeoutSeconds).");
      }
    }
    if (dlqRetention.compareTo(sourceRetention) <= 0) {
      problems.add("dlqRetentionDays is " + DurationText.show(dlqRetention) + " but must be longer than sourceRetentionDays ("
          + DurationText.show(sourceRetention) + "): a message keeps its original enqueue time when it moves to the DLQ,"
          + " so a DLQ that keeps messages no longer than the source deletes them before anyone can look.");
    }
    Duration lifetime = sourceRetention.plus(dlqRetention);
    if (idempotencyTtl.compareTo(lifetime) < 0) {
      problems.add("idempotencyTtlDays is " + DurationText.show(idempotencyTtl) + " but must be at least sourceRetentionDays + dlqRetentionDays = "
          + DurationText.show(lifetime) + ": a message redriven from the DLQ late in its life must still find its order's"
          + " booking record, or the partner books it again. The default adds " + DurationText.show(TTL_BUFFER) + ".");
    }
    if (!problems.isEmpty()) {
      throw new InconsistentTimingException(problems);
    }
  }

  /**
   * The defaults: 280 s partner tail, 300 s function, 1,800 s visibility, retries from 5 s doubling to
   * the visibility timeout for at least 2.5 hours (maxReceiveCount derived from them), 4 and 14 days.
   */
  public static TimingBudget defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads every setting that {@code lookup} knows (CDK context, system properties) on top of the
   * defaults; a setting it does not know keeps its default or is derived.
   */
  public static TimingBudget fromSettings(Function<String, String> lookup) {
    return new Builder().apply(lookup).build();
  }

  /**
   * How long an order stays locked after a booking whose outcome is unknown, counted from when the
   * booking request was sent: the partner may book up to its contract's maximum after the POST, and the
   * clocks of the partner, Lambda and DynamoDB may disagree by the allowance.
   */
  public Duration lateBookingHold() {
    return partnerContractMaximum.plus(clockSkewAllowance);
  }

  /** Rounds of records a batch runs one after another: the records beyond the concurrency wait for a slot. */
  public int sequentialRounds() {
    return ceilDiv(batchSize, recordConcurrency);
  }

  /**
   * The longest a failing message can retry before the redrive policy moves it to the DLQ: every try
   * killed by Lambda, or needing a person, keeps the whole visibility timeout, the longest wait there is.
   * No message still retrying is older.
   */
  public Duration longestRetryLife() {
    return visibilityTimeout.multipliedBy(maxReceiveCount);
  }

  /**
   * The oldest a message can be while SQS still ages it, with the consumer working: its first
   * {@link #RECEIVES_SQS_AGES} receives, each a try (at most the function timeout) and the wait it sets
   * (at most the visibility timeout), taken as soon as it is sent. Older, a message SQS still ages has not
   * been received for that long: the mapping is stopped or far behind. The messages-sitting alarm's threshold.
   */
  public Duration longestAgeSqsSees() {
    return functionTimeout.plus(visibilityTimeout).multipliedBy(RECEIVES_SQS_AGES);
  }

  /**
   * How long an order stays in flight, on average, when every try fails fast (a partner that refuses or
   * answers 5xx): between tries its message is hidden for the try's backoff, so it is in flight nearly
   * all of its retries, not one visibility period, until the redrive policy moves it to the DLQ.
   */
  public Duration outageRetryLife() {
    return retrySchedule.meanRetrying(maxReceiveCount);
  }

  /**
   * Messages in flight once an outage has lasted {@link #outageRetryLife()}, with orders arriving at
   * {@code ordersPerHour}: every order of the last retry life is still retrying (Little's law). Earlier in
   * an outage, the orders that arrived since it began.
   */
  public long inFlightThroughOutage(double ordersPerHour) {
    return Math.round(ordersPerHour * outageRetryLife().toMillis() / 3_600_000.0);
  }

  /**
   * The retry schedule as synth prints it: each receive's backoff, the receives before the DLQ and the
   * shortest and longest an order retries before it gets there.
   */
  public String retrySentence() {
    List<String> waits = retrySchedule.backoffs(maxReceiveCount).stream().map(DurationText::show).toList();
    return "a failed try returns after " + String.join(", ", waits) + " (receives 1 to " + maxReceiveCount
        + "; less up to " + retrySchedule.jitterPercent() + "% at random; a 429 after its Retry-After, at most "
        + DurationText.show(retrySchedule.longestBackoff()) + "; an order locked by an unanswered booking just after its lock, "
        + DurationText.show(retrySchedule.afterLock()) + " past it; a try killed or needing a person after the visibility timeout, "
        + DurationText.show(visibilityTimeout) + "), so an order retries at least " + DurationText.show(retrySchedule.shortestRetrying(maxReceiveCount))
        + " (retryHorizonSeconds " + DurationText.show(retryHorizon) + ") and at most " + DurationText.show(longestRetryLife())
        + " before the DLQ (maxReceiveCount " + maxReceiveCount + ")";
  }

  /**
   * How many orders an hour this budget books with {@code maxConcurrency} invocations at once (the event
   * source mapping's maximum concurrency, a deployment setting), at the partner's typical time for a
   * round of the batch and at the worst case this budget absorbs: the lookup's timeout plus the slowest booking.
   */
  public Capacity capacity(int maxConcurrency) {
    return Capacity.onTypicalPartnerDays(maxConcurrency, batchSize, recordConcurrency,
        partnerLookupTimeout.plus(partnerWorstCase));
  }

  /**
   * The same design with every duration divided by {@code divisor}, for a local run that replays hours
   * in minutes. The rules are ratios, so a consistent budget stays consistent (all but the retention
   * margin, fixed in real minutes: a budget with less than {@code divisor} times that margin to spare is refused); the divisor must keep the durations SQS and
   * Lambda take in whole seconds whole.
   */
  public TimingBudget scaledDown(int divisor) {
    if (divisor < 1) {
      throw new IllegalArgumentException("time scale divisor must be at least 1, got " + divisor);
    }
    RetrySchedule scaledSchedule = retrySchedule.scaledDown(divisor);
    return new TimingBudget(
        partnerWorstCase.dividedBy(divisor),
        partnerContractMaximum.dividedBy(divisor),
        clockSkewAllowance.dividedBy(divisor),
        partnerLookupTimeout.dividedBy(divisor),
        partnerDeadlineMargin.dividedBy(divisor),
        functionTimeout.dividedBy(divisor),
        batchingWindow.dividedBy(divisor),
        batchSize,
        recordConcurrency,
        visibilityTimeout.dividedBy(divisor),
        maxReceiveCount,
        scaledSchedule,
        // Each scaled wait is rounded down to the nanosecond; their sum may fall short of the scaled horizon by a few.
        min(retryHorizon.dividedBy(divisor), scaledSchedule.shortestRetrying(maxReceiveCount)),
        sourceRetention.dividedBy(divisor),
        dlqRetention.dividedBy(divisor),
        idempotencyTtl.dividedBy(divisor));
  }

  /** The function's share of these numbers, as the environment variables it reads at start-up. */
  public Map<String, String> functionEnvironment() {
    return Map.ofEntries(
        Map.entry(FunctionEnvironment.PARTNER_DEADLINE_MARGIN_MS, Long.toString(partnerDeadlineMargin.toMillis())),
        Map.entry(FunctionEnvironment.PARTNER_WORST_CASE_MS, Long.toString(partnerWorstCase.toMillis())),
        Map.entry(FunctionEnvironment.PARTNER_LOOKUP_TIMEOUT_MS, Long.toString(partnerLookupTimeout.toMillis())),
        Map.entry(FunctionEnvironment.PARTNER_LATE_BOOKING_HOLD_MS, Long.toString(lateBookingHold().toMillis())),
        Map.entry(FunctionEnvironment.RECORD_CONCURRENCY, Integer.toString(recordConcurrency)),
        Map.entry(FunctionEnvironment.MAX_RECEIVE_COUNT, Integer.toString(maxReceiveCount)),
        Map.entry(FunctionEnvironment.IDEMPOTENCY_TTL_SECONDS, Long.toString(idempotencyTtl.toSeconds())),
        Map.entry(FunctionEnvironment.RETRY_FIRST_BACKOFF_MS, Long.toString(retrySchedule.firstBackoff().toMillis())),
        Map.entry(FunctionEnvironment.RETRY_LONGEST_BACKOFF_MS, Long.toString(retrySchedule.longestBackoff().toMillis())),
        Map.entry(FunctionEnvironment.RETRY_JITTER_PERCENT, Integer.toString(retrySchedule.jitterPercent())),
        Map.entry(FunctionEnvironment.RETRY_AFTER_LOCK_MS, Long.toString(retrySchedule.afterLock().toMillis())));
  }

  /**
   * The retry schedule against the numbers it must fit: it keeps an order retrying for the horizon
   * within maxReceiveCount, and the queue's visibility timeout (what a try gets when Lambda kills it, or
   * when setting the message's visibility fails) outlasts both every backoff and every lock a failed try
   * can leave ({@code longestLock}: a try's invocation plus the late-booking hold).
   */
  private static List<String> retryProblems(RetrySchedule schedule, Duration horizon, int maxReceiveCount,
      Duration visibility, Duration longestLock) {
    List<String> problems = new ArrayList<>();
    if (!horizon.isPositive()) {
      problems.add("retryHorizonSeconds is " + DurationText.show(horizon) + " but must be positive.");
    }
    if (schedule.longestBackoff().compareTo(visibility) > 0) {
      problems.add("the retry schedule's longest backoff is " + DurationText.show(schedule.longestBackoff())
          + " but must be at most visibilityTimeoutSeconds (" + DurationText.show(visibility) + "): a try Lambda kills waits the"
          + " visibility timeout, and the receives before the DLQ are derived from the shortest waits.");
    }
    if (longestLock.plus(schedule.afterLock()).compareTo(visibility) > 0) {
      problems.add("visibilityTimeoutSeconds is " + DurationText.show(visibility) + " but must outlast a try's invocation and the"
          + " late-booking hold after it (" + DurationText.show(longestLock.plus(schedule.afterLock())) + "): when setting a"
          + " message's visibility fails, the queue's timeout is all that keeps it from a locked order.");
    }
    int needed = schedule.receivesFor(horizon);
    if (horizon.isPositive() && maxReceiveCount < needed) {
      problems.add("maxReceiveCount is " + maxReceiveCount + " but an order failing fast retries only "
          + DurationText.show(schedule.shortestRetrying(maxReceiveCount)) + " in that many receives, less than retryHorizonSeconds ("
          + DurationText.show(horizon) + "): " + (needed > SqsLimits.MAX_RECEIVE_COUNT ? "lower retryHorizonSeconds"
              : "leave maxReceiveCount unset (it is derived: " + needed + ") or raise it to " + needed) + ".");
    }
    return problems;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static boolean isWholeSeconds(Duration d) {
    return d.getNano() == 0;
  }

  private static int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }

  /**
   * Defaults plus overrides. Visibility and the idempotency TTL are derived from the numbers they
   * depend on unless set explicitly, so changing the function timeout alone yields a consistent set.
   */
  public static final class Builder {
    private Duration partnerWorstCase = Duration.ofSeconds(280);
    private Duration partnerContractMaximum = PARTNER_CONTRACT_MAXIMUM;
    private Duration clockSkewAllowance = CLOCK_SKEW_ALLOWANCE;
    private Duration partnerLookupTimeout = Duration.ofSeconds(5);
    private Duration partnerDeadlineMargin = Duration.ofSeconds(10);
    private Duration functionTimeout = Duration.ofSeconds(300);
    private Duration batchingWindow = Duration.ZERO;
    private int batchSize = 1;
    private int recordConcurrency = ESM_MAX_BATCH_SIZE;
    private Duration visibilityTimeout;
    private Integer maxReceiveCount;
    private Duration retryHorizon = Duration.ofMinutes(150);
    private Duration firstBackoff = Duration.ofSeconds(5);
    private Duration longestBackoff;
    private int jitterPercent = 20;
    private Duration sourceRetention = Duration.ofDays(4);
    private Duration dlqRetention = Duration.ofDays(14);
    private Duration idempotencyTtl;

    private Builder() {}

    public Builder partnerWorstCase(Duration v) { partnerWorstCase = v; return this; }
    public Builder partnerContractMaximum(Duration v) { partnerContractMaximum = v; return this; }
    public Builder clockSkewAllowance(Duration v) { clockSkewAllowance = v; return this; }
    public Builder partnerLookupTimeout(Duration v) { partnerLookupTimeout = v; return this; }
    public Builder partnerDeadlineMargin(Duration v) { partnerDeadlineMargin = v; return this; }
    public Builder functionTimeout(Duration v) { functionTimeout = v; return this; }
    public Builder batchingWindow(Duration v) { batchingWindow = v; return this; }
    public Builder batchSize(int v) { batchSize = v; return this; }
    public Builder recordConcurrency(int v) { recordConcurrency = v; return this; }
    public Builder visibilityTimeout(Duration v) { visibilityTimeout = v; return this; }
    public Builder maxReceiveCount(int v) { maxReceiveCount = v; return this; }
    public Builder retryHorizon(Duration v) { retryHorizon = v; return this; }
    public Builder firstBackoff(Duration v) { firstBackoff = v; return this; }
    public Builder longestBackoff(Duration v) { longestBackoff = v; return this; }
    public Builder jitterPercent(int v) { jitterPercent = v; return this; }
    public Builder sourceRetention(Duration v) { sourceRetention = v; return this; }
    public Builder dlqRetention(Duration v) { dlqRetention = v; return this; }
    public Builder idempotencyTtl(Duration v) { idempotencyTtl = v; return this; }

    Builder apply(Function<String, String> lookup) {
      Settings s = new Settings(lookup);
      s.seconds("partnerWorstCaseSeconds").ifPresent(this::partnerWorstCase);
      s.seconds("partnerLookupTimeoutSeconds").ifPresent(this::partnerLookupTimeout);
      s.seconds("partnerDeadlineMarginSeconds").ifPresent(this::partnerDeadlineMargin);
      s.seconds("functionTimeoutSeconds").ifPresent(this::functionTimeout);
      s.seconds("batchingWindowSeconds").ifPresent(this::batchingWindow);
      s.integer("batchSize").ifPresent(this::batchSize);
      s.integer("recordConcurrency").ifPresent(this::recordConcurrency);
      s.seconds("visibilityTimeoutSeconds").ifPresent(this::visibilityTimeout);
      s.integer("maxReceiveCount").ifPresent(this::maxReceiveCount);
      s.seconds("retryHorizonSeconds").ifPresent(this::retryHorizon);
      s.days("sourceRetentionDays").ifPresent(this::sourceRetention);
      s.days("dlqRetentionDays").ifPresent(this::dlqRetention);
      s.days("idempotencyTtlDays").ifPresent(this::idempotencyTtl);
      return this;
    }

    public TimingBudget build() {
      Duration visibility = visibilityTimeout != null ? visibilityTimeout
          : functionTimeout.multipliedBy(VISIBILITY_FACTOR).plus(batchingWindow);
      Duration ttl = idempotencyTtl != null ? idempotencyTtl
          : sourceRetention.plus(dlqRetention).plus(TTL_BUFFER);
      // The longest backoff is the visibility timeout, what a killed try waits anyway; past another try's
      // lock a try waits the clock-skew allowance, the same disagreement the late-booking hold allows for.
      // A visibility timeout outside what a schedule takes (below the first backoff, above SQS's 12 h) is
      // bounded here: the budget's own rules refuse it, in sentences that name the setting to change.
      Duration longest = longestBackoff != null ? longestBackoff
          : min(max(visibility, firstBackoff), SqsLimits.MAX_VISIBILITY);
      RetrySchedule schedule;
      try {
        schedule = new RetrySchedule(firstBackoff, longest, jitterPercent, clockSkewAllowance);
      } catch (IllegalArgumentException e) {
        throw new InconsistentTimingException(List.of(e.getMessage()));
      }
      int receives = maxReceiveCount != null ? maxReceiveCount
          : Math.max(2, Math.min(schedule.receivesFor(retryHorizon), SqsLimits.MAX_RECEIVE_COUNT + 1));
      return new TimingBudget(partnerWorstCase, partnerContractMaximum, clockSkewAllowance, partnerLookupTimeout,
          partnerDeadlineMargin, functionTimeout, batchingWindow,
          batchSize, recordConcurrency, visibility, receives, schedule, retryHorizon, sourceRetention, dlqRetention, ttl);
    }
  }
}
