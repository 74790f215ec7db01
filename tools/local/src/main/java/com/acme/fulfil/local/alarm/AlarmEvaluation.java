package com.acme.fulfil.local.alarm;

import com.acme.fulfil.contract.alarms.AlarmRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Plays one rule over its signal's datapoints, one a period, as CloudWatch evaluates an alarm: at the
 * end of each period it takes the latest {@code evaluationPeriods} datapoints and is in ALARM while at
 * least {@code datapointsToAlarm} of them breach, a missing datapoint counting as the rule's missing
 * data treatment says. Until the run has that many periods, the window holds those it has.
 */
final class AlarmEvaluation {
  private AlarmEvaluation() {}

  /**
   * @param datapoints one per period, in order, empty where the period had no data
   * @param period the rule's period, in local time: the end of period {@code i} is {@code (i + 1) x period}
   */
  static List<AlarmOutcome.Firing> firings(AlarmRule rule, List<OptionalDouble> datapoints, Duration period) {
    List<AlarmOutcome.Firing> firings = new ArrayList<>();
    Duration firedAt = null;
    for (int end = 0; end < datapoints.size(); end++) {
      Duration at = period.multipliedBy(end + 1);
      boolean alarm = inAlarm(rule, datapoints.subList(Math.max(0, end - rule.evaluationPeriods() + 1), end + 1),
          firedAt != null);
      if (alarm && firedAt == null) {
        firedAt = at;
      } else if (!alarm && firedAt != null) {
        firings.add(new AlarmOutcome.Firing(firedAt, Optional.of(at)));
        firedAt = null;
      }
    }
    if (firedAt != null) {
      firings.add(new AlarmOutcome.Firing(firedAt, Optional.empty()));
    }
    return firings;
  }

  private static boolean inAlarm(AlarmRule rule, List<OptionalDouble> window, boolean wasInAlarm) {
    int breaching = 0;
    int present = 0;
    for (OptionalDouble datapoint : window) {
      if (datapoint.isPresent()) {
        present++;
        breaching += rule.breaches(datapoint.getAsDouble()) ? 1 : 0;
      } else if (rule.missingData() == AlarmRule.MissingData.BREACHING) {
        breaching++;
      }
    }
    if (present == 0 && rule.missingData() == AlarmRule.MissingData.IGNORE) {
      return wasInAlarm;
    }
    // MISSING with no datapoint at all is INSUFFICIENT_DATA: out of ALARM, as here.
    return breaching >= rule.datapointsToAlarm();
  }
}
