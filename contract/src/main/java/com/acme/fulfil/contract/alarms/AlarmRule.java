package com.acme.fulfil.contract.alarms;

import java.time.Duration;
import java.util.Objects;

/**
 * One of the stack's alarms as CloudWatch evaluates it: at the end of every period it takes the latest
 * {@code evaluationPeriods} datapoints of its signal and is in ALARM while at least {@code
 * datapointsToAlarm} of them breach. The stack builds its CloudWatch alarm from this; the local run
 * plays it on what it observed.
 *
 * @param threshold in the signal's real-world units (seconds for an age)
 */
public record AlarmRule(
    String name,
    AlarmSignal signal,
    Duration period,
    int datapointsToAlarm,
    int evaluationPeriods,
    double threshold,
    Comparison comparison,
    MissingData missingData) {

  /** How a datapoint is compared with the threshold. */
  public enum Comparison {
    GREATER_THAN_THRESHOLD;

    boolean breaches(double value, double threshold) {
      return value > threshold;
    }
  }

  /** How a period without a datapoint counts (CloudWatch's TreatMissingData). */
  public enum MissingData {
    /** As a datapoint within the threshold. */
    NOT_BREACHING,
    /** As a breaching datapoint. */
    BREACHING,
    /** Not at all: the state stays what it was. */
    IGNORE,
    /** Not at all: with no datapoint in the window the alarm has insufficient data. */
    MISSING
  }

  public AlarmRule {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(signal, "signal");
    Objects.requireNonNull(period, "period");
    Objects.requireNonNull(comparison, "comparison");
    Objects.requireNonNull(missingData, "missingData");
    if (datapointsToAlarm < 1 || datapointsToAlarm > evaluationPeriods) {
      throw new IllegalArgumentException(name + ": " + datapointsToAlarm + " datapoints to alarm out of "
          + evaluationPeriods + " periods; CloudWatch wants from 1 to the periods evaluated");
    }
  }

  public boolean breaches(double datapoint) {
    return comparison.breaches(datapoint, threshold);
  }
}
