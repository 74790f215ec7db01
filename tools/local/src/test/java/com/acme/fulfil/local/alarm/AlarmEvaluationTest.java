package com.acme.fulfil.local.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.alarms.AlarmRule;
import com.acme.fulfil.contract.alarms.AlarmSignal;
import com.acme.fulfil.contract.alarms.AlarmRule.MissingData;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class AlarmEvaluationTest {
  private static final Duration PERIOD = Duration.ofSeconds(2);

  @Test
  void threeBreachingPeriodsOutOfFiveFireAtTheEndOfTheThird() {
    List<AlarmOutcome.Firing> firings = AlarmEvaluation.firings(rule(3, 5, MissingData.NOT_BREACHING),
        points(1, 0, 1, 1, 0, 0, 0, 0), PERIOD);

    assertThat(firings).containsExactly(new AlarmOutcome.Firing(seconds(8), Optional.of(seconds(12))));
  }

  @Test
  void twoBreachingPeriodsOutOfFiveNeverFire() {
    assertThat(AlarmEvaluation.firings(rule(3, 5, MissingData.NOT_BREACHING), points(1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1), PERIOD))
        .isEmpty();
  }

  @Test
  void breachesFurtherApartThanTheWindowNeverFire() {
    assertThat(AlarmEvaluation.firings(rule(3, 5, MissingData.NOT_BREACHING), points(1, 1, 0, 0, 0, 0, 1, 1), PERIOD))
        .isEmpty();
  }

  @Test
  void onePeriodRuleFiresAndClearsWithItsDatapoint() {
    assertThat(AlarmEvaluation.firings(rule(1, 1, MissingData.NOT_BREACHING), points(0, 1, 0, 1), PERIOD))
        .containsExactly(new AlarmOutcome.Firing(seconds(4), Optional.of(seconds(6))),
            new AlarmOutcome.Firing(seconds(8), Optional.empty()));
  }

  @Test
  void missingDataNotBreachingLetsGapsClearTheAlarm() {
    assertThat(AlarmEvaluation.firings(rule(2, 3, MissingData.NOT_BREACHING), points(1, null, 1, null, null), PERIOD))
        .containsExactly(new AlarmOutcome.Firing(seconds(6), Optional.of(seconds(8))));
  }

  @Test
  void missingDataBreachingCountsGapsAsBreaches() {
    assertThat(AlarmEvaluation.firings(rule(2, 3, MissingData.BREACHING), points(1, null, 0, 0, 0), PERIOD))
        .containsExactly(new AlarmOutcome.Firing(seconds(4), Optional.of(seconds(8))));
  }

  @Test
  void missingDataIgnoredKeepsTheStateThroughAWindowWithoutData() {
    assertThat(AlarmEvaluation.firings(rule(1, 1, MissingData.IGNORE), points(1, null, null, 0), PERIOD))
        .containsExactly(new AlarmOutcome.Firing(seconds(2), Optional.of(seconds(8))));
  }

  @Test
  void missingDataMissingLeavesAlarmForInsufficientData() {
    assertThat(AlarmEvaluation.firings(rule(1, 1, MissingData.MISSING), points(1, null, 1), PERIOD))
        .containsExactly(new AlarmOutcome.Firing(seconds(2), Optional.of(seconds(4))),
            new AlarmOutcome.Firing(seconds(6), Optional.empty()));
  }

  @Test
  void aDatapointAtTheThresholdDoesNotBreach() {
    AlarmRule backlog = new AlarmRule("backlog", AlarmSignal.WAITING, Duration.ofMinutes(5), 1, 1, 188,
        AlarmRule.Comparison.GREATER_THAN_THRESHOLD, MissingData.NOT_BREACHING);

    assertThat(AlarmEvaluation.firings(backlog, points(188, 189), PERIOD))
        .containsExactly(new AlarmOutcome.Firing(seconds(4), Optional.empty()));
  }

  private static AlarmRule rule(int datapoints, int periods, MissingData missing) {
    return new AlarmRule("failing", AlarmSignal.FAILING_WITHOUT_BOOKING, Duration.ofMinutes(1), datapoints, periods, 0,
        AlarmRule.Comparison.GREATER_THAN_THRESHOLD, missing);
  }

  /** A datapoint a period; null where the period has none. */
  private static List<OptionalDouble> points(Integer... values) {
    return Arrays.stream(values).map(v -> v == null ? OptionalDouble.empty() : OptionalDouble.of(v)).toList();
  }

  private static Duration seconds(long seconds) {
    return Duration.ofSeconds(seconds);
  }
}
