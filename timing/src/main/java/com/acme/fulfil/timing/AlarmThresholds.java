package com.acme.fulfil.timing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The threshold of each alarm, by name, for the settings a stack is deployed with: the stack sets them,
 * {@code ./fulfil-ops check} expects them. Every alarm fires above its threshold.
 */
public final class AlarmThresholds {
  /** A standard queue refuses receives at about this many messages in flight (SQS's quota). */
  public static final long SQS_IN_FLIGHT_CAP = 120_000;
  /** Below {@link #SQS_IN_FLIGHT_CAP}, leaving room to act. */
  public static final long IN_FLIGHT_WARNING = 100_000;

  private AlarmThresholds() {}

  public static Map<String, Double> of(TimingBudget budget, Capacity capacity) {
    Map<String, Double> thresholds = new LinkedHashMap<>();
    thresholds.put(AlarmNames.DLQ_NEW_MESSAGES, 0.0);
    thresholds.put(AlarmNames.OLDEST_MESSAGE_TOO_OLD, (double) budget.longestRetryLife().toSeconds());
    thresholds.put(AlarmNames.IN_FLIGHT_NEAR_CAP, (double) IN_FLIGHT_WARNING);
    thresholds.put(AlarmNames.FUNCTION_ERRORS, 0.0);
    thresholds.put(AlarmNames.FUNCTION_THROTTLES, 0.0);
    thresholds.put(AlarmNames.MAPPING_DROPPED_EVENTS, 0.0);
    thresholds.put(AlarmNames.BACKLOG, (double) capacity.backlogAlarmThreshold());
    thresholds.put(AlarmNames.PARTNER_FAILING, 0.0);
    return thresholds;
  }
}
