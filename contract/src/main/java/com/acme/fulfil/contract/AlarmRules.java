package com.acme.fulfil.contract;

import java.time.Duration;
import java.util.List;

/** The stack's alarms, for the settings a stack is deployed with: the stack creates them, the local run plays them. */
public final class AlarmRules {
  /** The partner-failing alarm's period: a page within minutes needs minutes, not five-minute periods. */
  static final Duration MINUTE = Duration.ofMinutes(1);

  private AlarmRules() {}

  public static List<AlarmRule> of(TimingBudget budget, Capacity capacity) {
    return List.of(
        // Arrivals, counted where the function decides them: in ALARM from the first period with one until a
        // period without, so a burst over consecutive periods pages once, and the next burst pages again.
        onePeriod(AlarmNames.DLQ_NEW_MESSAGES, AlarmSignal.DLQ_ARRIVALS, 0),
        // The backstop: in ALARM while anything waits in the DLQ, whatever brought it there (a last try
        // Lambda killed, which no count of the function's sees).
        onePeriod(AlarmNames.DLQ_NOT_EMPTY, AlarmSignal.DLQ_DEPTH, 0),
        // SQS ages a message only until its third receive: older than its first two receives can take, a
        // message SQS still ages has not been received for that long.
        onePeriod(AlarmNames.OLDEST_MESSAGE_TOO_OLD, AlarmSignal.OLDEST_MESSAGE_AGE, budget.longestAgeSqsSees().toSeconds()),
        onePeriod(AlarmNames.IN_FLIGHT_NEAR_CAP, AlarmSignal.IN_FLIGHT, AlarmThresholds.IN_FLIGHT_WARNING),
        onePeriod(AlarmNames.FUNCTION_ERRORS, AlarmSignal.FUNCTION_ERRORS, 0),
        onePeriod(AlarmNames.FUNCTION_THROTTLES, AlarmSignal.THROTTLES, 0),
        onePeriod(AlarmNames.BACKLOG, AlarmSignal.WAITING, capacity.backlogAlarmThreshold()),
        // Three bad minutes out of five: a minute or two of failures that the retries absorb does not page.
        new AlarmRule(AlarmNames.PARTNER_FAILING, AlarmSignal.FAILING_WITHOUT_BOOKING, MINUTE, 3, 5, 0,
            AlarmRule.Comparison.GREATER_THAN_THRESHOLD, AlarmRule.MissingData.NOT_BREACHING));
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
