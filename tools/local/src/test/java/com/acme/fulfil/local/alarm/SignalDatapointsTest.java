package com.acme.fulfil.local.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.alarms.AlarmSignal;
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
   * The arrivals, period by period: the function's count, or the rise of the DLQ's depth over the period
   * before, whichever is more. A redrive that empties the DLQ while poison fails back into it (the depth falls)
   * still counts every arrival the function counted; a rise the function never counted (a last try Lambda
   * killed) counts too; a period without a sample keeps the depth before it. The depth is the DLQ's, whatever
   * brought the messages there.
   */
  @Test
  void dlqArrivalsAreTheFunctionsCountOrTheRiseOfTheDepthWhicheverIsMore() {
    List<AlarmSample> samples = List.of(at(1).dlq(0, 0), at(9).dlq(2, 2), at(15).dlq(2, 2), at(25).dlq(5, 5),
        at(32).dlq(1, 7), at(45).dlq(3, 7), at(61).dlq(3, 7));

    assertThat(new SignalDatapoints(samples, PERIOD).of(AlarmSignal.DLQ_ARRIVALS)).containsExactly(OptionalDouble.of(2),
        OptionalDouble.of(0), OptionalDouble.of(3), OptionalDouble.of(2), OptionalDouble.of(2), OptionalDouble.of(0));
    assertThat(new SignalDatapoints(samples, PERIOD).of(AlarmSignal.DLQ_DEPTH)).containsExactly(OptionalDouble.of(2),
        OptionalDouble.of(2), OptionalDouble.of(5), OptionalDouble.of(1), OptionalDouble.of(3), OptionalDouble.empty());
  }

  /** Orders visible all period and none received or deleted breaches; one receive or delete, or none waiting, does not. */
  @Test
  void aPeriodWithOrdersWaitingAndNoneReceivedOrDeletedIsStalled() {
    List<AlarmSample> samples = List.of(at(1).source(3, 0, 0), at(9).source(4, 0, 0), at(12).source(4, 1, 0),
        at(25).source(4, 1, 1), at(31).source(0, 1, 1), at(38).source(2, 1, 1), at(55).source(2, 1, 1),
        at(61).source(2, 1, 1));

    assertThat(new SignalDatapoints(samples, PERIOD).of(AlarmSignal.STALLED)).containsExactly(OptionalDouble.of(1),
        OptionalDouble.of(0), OptionalDouble.of(0), OptionalDouble.of(0), OptionalDouble.empty(), OptionalDouble.of(1));
  }

  @Test
  void bookingsAfterTheHoldAreTheFunctionsCountAndNoneWithoutOne() {
    List<AlarmSample> samples = List.of(at(1).afterHold(0), at(15).afterHold(1), at(25).afterHold(1), at(31).afterHold(1));

    assertThat(new SignalDatapoints(samples, PERIOD).of(AlarmSignal.BOOKED_AFTER_HOLD))
        .containsExactly(OptionalDouble.empty(), OptionalDouble.of(1), OptionalDouble.empty());
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

    /** @param received and {@code deleted}: the source queue's running totals */
    AlarmSample source(int waiting, long received, long deleted) {
      return new AlarmSample(at, waiting, 0, Duration.ZERO, Optional.of(0), received, deleted, 0, FunctionMetricCounts.Totals.NONE);
    }

    AlarmSample afterHold(long bookedAfterHold) {
      return sample(0, Duration.ZERO, 0, new FunctionMetricCounts.Totals(0, 0, 0, 0, bookedAfterHold));
    }

    /** @param deadLettered the function's running total of messages on their way to the DLQ */
    AlarmSample dlq(int depth, long deadLettered) {
      return sample(0, Duration.ZERO, depth, new FunctionMetricCounts.Totals(0, 0, 0, deadLettered, 0));
    }

    AlarmSample counts(long failed, long booked, long adopted) {
      return sample(0, Duration.ZERO, 0, new FunctionMetricCounts.Totals(failed, booked, adopted, 0, 0));
    }

    AlarmSample age(Duration age) {
      return sample(0, age, 0, FunctionMetricCounts.Totals.NONE);
    }

    private AlarmSample sample(int waiting, Duration age, int dlq, FunctionMetricCounts.Totals totals) {
      return new AlarmSample(at, waiting, 0, age, Optional.of(dlq), 0, 0, 0, totals);
    }
  }
}
