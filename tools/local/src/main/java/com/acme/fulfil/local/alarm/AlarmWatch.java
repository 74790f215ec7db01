package com.acme.fulfil.local.alarm;

import com.acme.fulfil.contract.alarms.AlarmRule;
import com.acme.fulfil.contract.alarms.AlarmSignal;
import com.acme.fulfil.local.TimeScale;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The stack's alarms over one configuration of a local run: it keeps what the run samples and, at the
 * end, plays every rule on it at the rule's period scaled to local time.
 */
public final class AlarmWatch {
  private final List<AlarmRule> rules;
  private final TimeScale scale;
  private final boolean hasDeadLetterQueue;
  private final boolean emitsFunctionMetrics;
  private final List<AlarmSample> samples = new ArrayList<>();

  /**
   * @param rules the stack's, for this configuration's capacity
   * @param emitsFunctionMetrics whether the configuration's function writes the counts the
   *     partner-failing, DLQ and booked-after-hold alarms read (the incident's wrote none)
   */
  public AlarmWatch(List<AlarmRule> rules, TimeScale scale, boolean hasDeadLetterQueue, boolean emitsFunctionMetrics) {
    this.rules = List.copyOf(rules);
    this.scale = scale;
    this.hasDeadLetterQueue = hasDeadLetterQueue;
    this.emitsFunctionMetrics = emitsFunctionMetrics;
  }

  public synchronized void sample(AlarmSample sample) {
    samples.add(sample);
  }

  /** The most messages seen waiting in the source queue. */
  public synchronized int mostWaiting() {
    return samples.stream().mapToInt(AlarmSample::waiting).max().orElse(0);
  }

  public synchronized List<AlarmOutcome> outcomes() {
    return rules.stream().map(this::outcome).toList();
  }

  private AlarmOutcome outcome(AlarmRule rule) {
    if (rule.signal().needsDeadLetterQueue() && !hasDeadLetterQueue) {
      return AlarmOutcome.notApplicable(rule.name(), rule.threshold(), "no DLQ");
    }
    // The DLQ arrivals read the DLQ's depth too, so they stand without the function's counts.
    if ((rule.signal() == AlarmSignal.FAILING_WITHOUT_BOOKING || rule.signal() == AlarmSignal.BOOKED_AFTER_HOLD)
        && !emitsFunctionMetrics) {
      return AlarmOutcome.notApplicable(rule.name(), rule.threshold(), "its function emits no metrics");
    }
    Duration period = scale.toLocal(rule.period());
    return new AlarmOutcome(rule.name(), rule.threshold(), Optional.empty(),
        AlarmEvaluation.firings(rule, new SignalDatapoints(samples, period).of(rule.signal()), period));
  }
}
