package com.acme.fulfil.local.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.acme.fulfil.contract.alarms.AlarmRules;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.TimeScale;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The stack's two DLQ alarms, played as the local run plays them (one-minute periods are 2 s at 1/30,
 * five-minute ones 10 s), page as their texts say: orders reaching the DLQ page within a minute and once a
 * burst, OK after five minutes without one, and the next arrival pages again, whatever the DLQ holds and
 * whether or not the function counted them; the depth alarm pages once when the DLQ stops being empty and
 * clears only when it is empty.
 */
class AlarmWatchTest {
  private static final TimeScale SCALE = TimeScale.INCIDENT_REPLAY;
  private static final TimingBudget BUDGET = TimingBudget.defaults();

  private final AlarmWatch watch = new AlarmWatch(AlarmRules.of(BUDGET, BUDGET.capacity(10)), SCALE, true, true);

  @Test
  void anOutagesTailReachingTheDlqOverConsecutiveMinutesPagesOnceAndAgainForALaterArrival() {
    // Orders run out of receives every five minutes four times, then none for ten minutes, then one more.
    sample(5, 0, 0);
    sample(15, 3, 3);
    sample(25, 5, 5);
    sample(35, 9, 9);
    sample(45, 10, 10);
    sample(55, 10, 10);
    sample(65, 11, 11);
    sample(79, 11, 11);

    assertThat(outcome(AlarmNames.DLQ_NEW_MESSAGES).firings()).containsExactly(
        new AlarmOutcome.Firing(seconds(16), Optional.of(seconds(56))),
        new AlarmOutcome.Firing(seconds(66), Optional.of(seconds(76))));
    assertThat(outcome(AlarmNames.DLQ_NOT_EMPTY).firings()).as("one page while the DLQ holds them")
        .containsExactly(new AlarmOutcome.Firing(seconds(20), Optional.empty()));
  }

  /**
   * A last try the function never counted (throttled, killed, out of memory): the redrive policy moves the
   * message, the DLQ's depth rises, and that pages although the DLQ already held messages and its depth alarm
   * stays in ALARM without paging again.
   */
  @Test
  void anArrivalTheFunctionNeverCountedPagesWhileTheDlqAlreadyHoldsMessages() {
    sample(1, 4, 4);
    sample(11, 4, 4);
    sample(21, 4, 4);
    sample(31, 5, 4);
    sample(41, 5, 4);
    sample(51, 5, 4);
    sample(59, 5, 4);

    assertThat(outcome(AlarmNames.DLQ_NEW_MESSAGES).firings()).containsExactly(
        new AlarmOutcome.Firing(seconds(2), Optional.of(seconds(12))),
        new AlarmOutcome.Firing(seconds(32), Optional.of(seconds(42))));
    assertThat(outcome(AlarmNames.DLQ_NOT_EMPTY).firings()).containsExactly(new AlarmOutcome.Firing(seconds(10), Optional.empty()));
  }

  @Test
  void aRedriveThatEmptiesTheDlqWhilePoisonFailsBackPagesForTheArrivalsAndClearsTheDepthOnceEmpty() {
    // Six dead letters wait (their arrival pages first); the redrive moves them out over two periods, two of
    // them poison that the function sends straight back; on-call drops those two.
    sample(5, 6, 0);
    sample(15, 6, 0);
    sample(25, 3, 1);
    sample(35, 2, 2);
    sample(45, 0, 2);
    sample(59, 0, 2);

    assertThat(outcome(AlarmNames.DLQ_NEW_MESSAGES).firings()).as("the poison's return pages, the depth falling or not")
        .containsExactly(new AlarmOutcome.Firing(seconds(6), Optional.of(seconds(16))),
            new AlarmOutcome.Firing(seconds(26), Optional.of(seconds(46))));
    assertThat(outcome(AlarmNames.DLQ_NOT_EMPTY).firings()).as("OK once nothing is left")
        .containsExactly(new AlarmOutcome.Firing(seconds(10), Optional.of(seconds(50))));
  }

  private void sample(long atSeconds, int dlqDepth, long deadLettered) {
    watch.sample(new AlarmSample(seconds(atSeconds), 0, 0, Duration.ZERO, Optional.of(dlqDepth), 0, 0, 0,
        new FunctionMetricCounts.Totals(0, 0, 0, deadLettered, 0)));
  }

  private AlarmOutcome outcome(String name) {
    return watch.outcomes().stream().filter(alarm -> alarm.name().equals(name)).findFirst().orElseThrow();
  }

  private static Duration seconds(long seconds) {
    return Duration.ofSeconds(seconds);
  }
}
