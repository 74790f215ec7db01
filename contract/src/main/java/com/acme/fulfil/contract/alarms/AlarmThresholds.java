package com.acme.fulfil.contract.alarms;

import com.acme.fulfil.contract.timing.Capacity;
import com.acme.fulfil.contract.timing.TimingBudget;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The threshold of each alarm, by name, for the settings a stack is deployed with: the stack sets them,
 * {@code ./fulfil-ops check} expects them. Every alarm fires above its threshold.
 */
public final class AlarmThresholds {
  private AlarmThresholds() {}

  public static Map<String, Double> of(TimingBudget budget, Capacity capacity) {
    Map<String, Double> thresholds = new LinkedHashMap<>();
    AlarmRules.of(budget, capacity).forEach(rule -> thresholds.put(rule.name(), rule.threshold()));
    return thresholds;
  }
}
