package com.acme.fulfil.contract;

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
    AlarmRules.of(budget, capacity).forEach(rule -> thresholds.put(rule.name(), rule.threshold()));
    return thresholds;
  }
}
