package com.acme.fulfil.contract.alarms;

import com.acme.fulfil.contract.sqs.SqsLimits;
import com.acme.fulfil.contract.timing.Capacity;
import com.acme.fulfil.contract.timing.TimingBudget;
import java.time.Duration;
import java.util.List;

/** The stack's alarms, for the settings a stack is deployed with: the stack creates them, the local run plays them. */
public final class AlarmRules {
  /**
   * The period of the alarms that must page within minutes: SQS publishes its metrics once a minute, and the
   * function's counts arrive with each invocation.
   */
  static final Duration MINUTE = Duration.ofMinutes(1);
  /**
   * The DLQ arrivals alarm stays in ALARM while any of this many minutes had an arrival: a burst pages once,
   * and a depth datapoint CloudWatch receives late still falls inside the window it is evaluated in.
   */
  static final int DLQ_ARRIVALS_WINDOW_MINUTES = 5;
  /**
   * The stall alarm waits this many invocations' longest time (the function's timeout plus the batching
   * window), in whole five-minute periods, before it pages: a working mapping at its concurrency ends one
   * invocation, and so deletes or receives, within one of them; the second is the margin for SQS's
   * approximate counts. Five-minute periods, so that it holds whether SQS reports a queue every minute or
   * every five.
   */
  static final int STALL_INVOCATIONS = 2;
  /** The in-flight alarm's threshold: below {@link SqsLimits#IN_FLIGHT_CAP}, leaving room to act. */
  public static final long IN_FLIGHT_WARNING = 100_000;

  private AlarmRules() {}

  public static List<AlarmRule> of(TimingBudget budget, Capacity capacity) {
    return List.of(
        // An arrival in a minute fires it; it stays in ALARM while any of the last few minutes had one, so a burst
        // pages once, and clears after that many minutes without one: the next arrival pages again, whatever the
        // DLQ already holds. Every datapoint missing is every input missing: the function counted none, nothing
        // was sent to the DLQ, and SQS reported no depth, which it does for any queue that holds a message.
        new AlarmRule(AlarmNames.DLQ_NEW_MESSAGES, AlarmSignal.DLQ_ARRIVALS, MINUTE, 1, DLQ_ARRIVALS_WINDOW_MINUTES, 0,
            AlarmRule.Comparison.GREATER_THAN_THRESHOLD, AlarmRule.MissingData.NOT_BREACHING),
        // In ALARM while SQS reports anything in the DLQ. Without a datapoint it is neither: an empty DLQ that
        // nothing touches stops being reported after six hours, so its OK is only ever SQS reporting it empty.
        new AlarmRule(AlarmNames.DLQ_NOT_EMPTY, AlarmSignal.DLQ_DEPTH, TimingBudget.ALARM_PERIOD, 1, 1, 0,
            AlarmRule.Comparison.GREATER_THAN_THRESHOLD, AlarmRule.MissingData.MISSING),
        // SQS ages a message only until its third receive: older than its first two receives can take, plus what
        // the stack books in the backlog window, a message SQS still ages has not been received for that long.
        onePeriod(AlarmNames.OLDEST_MESSAGE_TOO_OLD, AlarmSignal.OLDEST_MESSAGE_AGE, oldestMessageAge(budget).toSeconds()),
        onePeriod(AlarmNames.IN_FLIGHT_NEAR_CAP, AlarmSignal.IN_FLIGHT, IN_FLIGHT_WARNING),
        onePeriod(AlarmNames.FUNCTION_ERRORS, AlarmSignal.FUNCTION_ERRORS, 0),
        onePeriod(AlarmNames.FUNCTION_THROTTLES, AlarmSignal.THROTTLES, 0),
        onePeriod(AlarmNames.BACKLOG, AlarmSignal.WAITING, capacity.backlogAlarmThreshold()),
        // Three bad minutes out of five: a minute or two of failures that the retries absorb does not page.
        new AlarmRule(AlarmNames.PARTNER_FAILING, AlarmSignal.FAILING_WITHOUT_BOOKING, MINUTE, 3, 5, 0,
            AlarmRule.Comparison.GREATER_THAN_THRESHOLD, AlarmRule.MissingData.NOT_BREACHING),
        // Every period of the window stalled. A period without a datapoint is one SQS did not report the source
        // queue's visible messages: it reports them for any queue that holds a message, so none were waiting.
        new AlarmRule(AlarmNames.STALLED, AlarmSignal.STALLED, TimingBudget.ALARM_PERIOD, stallPeriods(budget),
            stallPeriods(budget), 0, AlarmRule.Comparison.GREATER_THAN_THRESHOLD, AlarmRule.MissingData.NOT_BREACHING),
        onePeriod(AlarmNames.BOOKED_AFTER_HOLD, AlarmSignal.BOOKED_AFTER_HOLD, 0));
  }

  /**
   * The oldest-message alarm's threshold: {@link TimingBudget#longestAgeSqsSees()}, the longest a message's
   * first two receives take with the mapping taking each as soon as it is visible, plus {@link
   * Capacity#BACKLOG_WINDOW}, the longest a message waits behind a backlog the backlog alarm lets stand.
   */
  public static Duration oldestMessageAge(TimingBudget budget) {
    return budget.longestAgeSqsSees().plus(Capacity.BACKLOG_WINDOW);
  }

  /** The stall alarm's window, in whole alarm periods: {@link #STALL_INVOCATIONS} of an invocation's longest time. */
  public static int stallPeriods(TimingBudget budget) {
    long window = budget.functionTimeout().plus(budget.batchingWindow()).multipliedBy(STALL_INVOCATIONS).toSeconds();
    long period = TimingBudget.ALARM_PERIOD.toSeconds();
    return (int) ((window + period - 1) / period);
  }

  /**
   * Fires on one breaching five-minute datapoint. A period without data (no arrivals, no errors) is
   * quiet, not a reason to page.
   */
  private static AlarmRule onePeriod(String name, AlarmSignal signal, double threshold) {
    return new AlarmRule(name, signal, TimingBudget.ALARM_PERIOD, 1, 1, threshold,
        AlarmRule.Comparison.GREATER_THAN_THRESHOLD, AlarmRule.MissingData.NOT_BREACHING);
  }
}
