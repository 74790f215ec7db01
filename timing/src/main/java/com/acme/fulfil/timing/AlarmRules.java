package com.acme.fulfil.timing;

import java.time.Duration;
import java.util.List;

/** The stack's alarms, for the settings a stack is deployed with: the stack creates them, the local run plays them. */
public final class AlarmRules {
  /** The partner-failing alarm's period: a page within minutes needs minutes, not five-minute periods. */
  static final Duration MINUTE = Duration.ofMinutes(1);

  private AlarmRules() {}

  public static List<AlarmRule> of(TimingBudget budget, Capacity capacity) {
    return List.of(
        // Arrivals in each period, not the DLQ's depth: a depth alarm stays in ALARM while one message
        // waits, and later ones page no one.
        onePeriod(AlarmNames.DLQ_NEW_MESSAGES, AlarmSignal.DLQ_ARRIVALS, 0),
        // Within the longest retry life every message is booked or in the DLQ: one still waiting after
        // that means consumption has stalled.
        onePeriod(AlarmNames.OLDEST_MESSAGE_TOO_OLD, AlarmSignal.OLDEST_MESSAGE_AGE, budget.longestRetryLife().toSeconds()),
        onePeriod(AlarmNames.IN_FLIGHT_NEAR_CAP, AlarmSignal.IN_FLIGHT, AlarmThresholds.IN_FLIGHT_WARNING),
        onePeriod(AlarmNames.FUNCTION_ERRORS, AlarmSignal.FUNCTION_ERRORS, 0),
        onePeriod(AlarmNames.FUNCTION_THROTTLES, AlarmSignal.THROTTLES, 0),
        onePeriod(AlarmNames.MAPPING_DROPPED_EVENTS, AlarmSignal.DROPPED_EVENTS, 0),
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
