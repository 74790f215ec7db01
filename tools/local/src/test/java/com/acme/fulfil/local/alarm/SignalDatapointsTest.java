package com.acme.fulfil.local.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.AlarmSignal;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class SignalDatapointsTest {
  private static final Duration PERIOD = Duration.ofSeconds(10);

  @Test
  void theBacklogReadsTheFewestWaitingInEachWholePeriodAndLeavesTheUnfinishedOneOut() {
    List<AlarmSample> samples = List.of(at(0).waiting(300), at(4).waiting(190), at(9).waiting(250),
        at(10).waiting(5), at(12).waiting(400));

    assertThat(new SignalDatapoints(samples, PERIOD).of(AlarmSignal.WAITING)).containsExactly(OptionalDouble.of(190));
  }

  /**
   * The arrivals are the function's own count, period by period: a redrive that empties the DLQ while
   * poison fails back into it (the depth falls) still counts every arrival, and a period without one has no
   * datapoint. The depth is the DLQ's, whatever brought the messages there.
   */
  @Test
  void dlqArrivalsAreTheFunctionsCountWhateverTheDepthDoes() {
    List<AlarmSample> samples = List.of(at(1).dlq(0, 0), at(9).dlq(2, 2), at(15).dlq(2, 2), at(25).dlq(5, 5),
        at(32).dlq(1, 7), at(41).dlq(1, 7));

    assertThat(new SignalDatapoints(samples, PERIOD).of(AlarmSignal.DLQ_ARRIVALS))
        .containsExactly(OptionalDouble.of(2), OptionalDouble.empty(), OptionalDouble.of(3), OptionalDouble.of(2));
    assertThat(new SignalDatapoints(samples, PERIOD).of(AlarmSignal.DLQ_DEPTH))
        .containsExactly(OptionalDouble.of(2), OptionalDouble.of(2), OptionalDouble.of(5), OptionalDouble.of(1));
  }

  @Test
  void aMinuteWithFailuresAndNoBookingBreachesOneWithABookingDoesNotOneWithNeitherHasNoDatapoint() {
    List<AlarmSample> samples = List.of(at(5).counts(4, 0, 0), at(15).counts(6, 1, 0), at(25).counts(6, 1, 0),
        at(35).counts(7, 1, 1), at(45).counts(9, 1, 1), at(50).counts(9, 1, 1));

    assertThat(new SignalDatapoints(samples, PERIOD).of(AlarmSignal.FAILING_WITHOUT_BOOKING)).containsExactly(
        OptionalDouble.of(1), OptionalDouble.of(0), OptionalDouble.empty(), OptionalDouble.of(0), OptionalDouble.of(1));
  }

  @Test
  void theOldestMessagesAgeIsTheMostInThePeriodInRealSeconds() {
    List<AlarmSample> samples = List.of(at(1).age(Duration.ofMinutes(2)), at(8).age(Duration.ofMinutes(7)),
        at(11).age(Duration.ofMinutes(1)));

    assertThat(new SignalDatapoints(samples, PERIOD).of(AlarmSignal.OLDEST_MESSAGE_AGE)).containsExactly(OptionalDouble.of(420));
  }

  private static SampleAt at(long seconds) {
    return new SampleAt(Duration.ofSeconds(seconds));
  }

  /** Builds one sample: everything zero but what the test sets. */
  private record SampleAt(Duration at) {
    AlarmSample waiting(int waiting) {
      return sample(waiting, Duration.ZERO, 0, FunctionMetricCounts.Totals.NONE);
    }

    /** @param deadLettered the function's running total of messages on their way to the DLQ */
    AlarmSample dlq(int depth, long deadLettered) {
      return sample(0, Duration.ZERO, depth, new FunctionMetricCounts.Totals(0, 0, 0, deadLettered));
    }

    AlarmSample counts(long failed, long booked, long adopted) {
      return sample(0, Duration.ZERO, 0, new FunctionMetricCounts.Totals(failed, booked, adopted, 0));
    }

    AlarmSample age(Duration age) {
      return sample(0, age, 0, FunctionMetricCounts.Totals.NONE);
    }

    private AlarmSample sample(int waiting, Duration age, int dlq, FunctionMetricCounts.Totals totals) {
      return new AlarmSample(at, waiting, 0, age, Optional.of(dlq), 0, totals);
    }
  }
}
