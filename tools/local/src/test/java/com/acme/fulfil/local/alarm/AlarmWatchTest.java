package com.acme.fulfil.local.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.contract.AlarmNames;
import com.acme.fulfil.contract.AlarmRules;
import com.acme.fulfil.contract.TimingBudget;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The stack's two DLQ alarms, played as the local run plays them (five-minute periods are 10 s at 1/30),
 * page as their texts say: orders reaching the DLQ over consecutive periods page once, OK after a period
 * without one, and the next arrival pages again; the depth alarm pages once when the DLQ stops being empty
 * and clears only when it is empty; a redrive that empties the DLQ while poison fails back into it still
 * pages for the arrivals.
 */
class AlarmWatchTest {
  private static final TimeScale SCALE = TimeScale.INCIDENT_REPLAY;
  private static final TimingBudget BUDGET = TimingBudget.defaults();

  private final AlarmWatch watch = new AlarmWatch(AlarmRules.of(BUDGET, BUDGET.capacity(10)), SCALE, true, true);

  @Test
  void anOutagesTailReachingTheDlqOverConsecutivePeriodsPagesOnceAndAgainForALaterArrival() {
    // Orders run out of receives in four periods in a row, then none for a period, then one more.
    sample(5, 0, 0);
    sample(15, 3, 3);
    sample(25, 5, 5);
    sample(35, 9, 9);
    sample(45, 10, 10);
    sample(55, 10, 10);
    sample(65, 11, 11);
    sample(79, 11, 11);

    AlarmOutcome arrivals = outcome(AlarmNames.DLQ_NEW_MESSAGES);
    assertThat(arrivals.firings()).containsExactly(
        new AlarmOutcome.Firing(seconds(20), Optional.of(seconds(60))),
        new AlarmOutcome.Firing(seconds(70), Optional.empty()));
    assertThat(outcome(AlarmNames.DLQ_NOT_EMPTY).firings()).as("one page while the DLQ holds them")
        .containsExactly(new AlarmOutcome.Firing(seconds(20), Optional.empty()));
  }

  @Test
  void aRedriveThatEmptiesTheDlqWhilePoisonFailsBackPagesForTheArrivalsAndClearsTheDepthOnceEmpty() {
    // Six dead letters wait; the redrive moves them out over two periods, two of them poison that the
    // function sends straight back; on-call drops those two.
    sample(5, 6, 0);
    sample(15, 6, 0);
    sample(25, 3, 1);
    sample(35, 2, 2);
    sample(45, 0, 2);
    sample(59, 0, 2);

    assertThat(outcome(AlarmNames.DLQ_NEW_MESSAGES).firings()).as("the poison's return pages, the depth falling or not")
        .containsExactly(new AlarmOutcome.Firing(seconds(30), Optional.of(seconds(50))));
    assertThat(outcome(AlarmNames.DLQ_NOT_EMPTY).firings()).as("OK once nothing is left")
        .containsExactly(new AlarmOutcome.Firing(seconds(10), Optional.of(seconds(50))));
  }

  private void sample(long atSeconds, int dlqDepth, long deadLettered) {
    watch.sample(new AlarmSample(seconds(atSeconds), 0, 0, Duration.ZERO, Optional.of(dlqDepth), 0,
        new FunctionMetricCounts.Totals(0, 0, 0, deadLettered)));
  }

  private AlarmOutcome outcome(String name) {
    return watch.outcomes().stream().filter(alarm -> alarm.name().equals(name)).findFirst().orElseThrow();
  }

  private static Duration seconds(long seconds) {
    return Duration.ofSeconds(seconds);
  }
}
