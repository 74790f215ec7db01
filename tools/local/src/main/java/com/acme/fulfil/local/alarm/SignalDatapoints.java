package com.acme.fulfil.local.alarm;

import com.acme.fulfil.contract.alarms.AlarmSignal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * A signal's datapoints, one a whole period from the run's start (a period the run ended in is left
 * out, as CloudWatch has no datapoint for it yet), computed from a local run's samples as CloudWatch
 * computes them from the stack's metrics. A count nothing added to in a period has no datapoint: the
 * metric was not emitted.
 */
final class SignalDatapoints {
  /** The samples of each whole period, in order: grouped once, as {@code --serve} evaluates every second. */
  private final List<List<AlarmSample>> byPeriod = new ArrayList<>();

  /** @param samples in time order */
  SignalDatapoints(List<AlarmSample> samples, Duration period) {
    int periods = samples.isEmpty() ? 0 : (int) (samples.getLast().at().toNanos() / period.toNanos());
    for (int i = 0; i < periods; i++) {
      byPeriod.add(new ArrayList<>());
    }
    for (AlarmSample sample : samples) {
      int index = (int) (sample.at().toNanos() / period.toNanos());
      if (index < periods) {
        byPeriod.get(index).add(sample);
      }
    }
  }

  List<OptionalDouble> of(AlarmSignal signal) {
    return switch (signal) {
      case WAITING -> gauge(signal.statistic(), AlarmSample::waiting);
      case IN_FLIGHT -> gauge(signal.statistic(), AlarmSample::inFlight);
      case OLDEST_MESSAGE_AGE -> gauge(signal.statistic(), s -> s.oldestMessageAge().toSeconds());
      case FUNCTION_ERRORS -> counted(AlarmSample::functionErrors);
      // The local mapping invokes at most its maximum concurrency, all of it provisioned: Lambda's
      // throttles have nothing to count here.
      case THROTTLES -> nothingEmitted();
      case DLQ_ARRIVALS -> dlqArrivals();
      case DLQ_DEPTH -> gauge(signal.statistic(), s -> s.deadLetters().orElseThrow());
      case FAILING_WITHOUT_BOOKING -> failingWithoutBooking();
      case STALLED -> stalled();
      case BOOKED_AFTER_HOLD -> counted(s -> s.functionMetrics().bookedAfterHold());
    };
  }

  private int periods() {
    return byPeriod.size();
  }

  private List<AlarmSample> in(int index) {
    return byPeriod.get(index);
  }

  private List<OptionalDouble> gauge(AlarmSignal.Statistic statistic, ToDoubleFunction<AlarmSample> value) {
    List<OptionalDouble> datapoints = new ArrayList<>();
    for (int i = 0; i < periods(); i++) {
      var values = in(i).stream().mapToDouble(value);
      datapoints.add(switch (statistic) {
        case MAXIMUM -> values.max();
        case MINIMUM -> values.min();
        case SUM -> values.reduce(Double::sum);
      });
    }
    return datapoints;
  }

  /** How much a running total grew in each period. */
  private List<Long> increments(ToLongFunction<AlarmSample> total) {
    List<Long> increments = new ArrayList<>();
    long before = 0;
    for (int i = 0; i < periods(); i++) {
      List<AlarmSample> within = in(i);
      long after = within.isEmpty() ? before : total.applyAsLong(within.getLast());
      increments.add(after - before);
      before = after;
    }
    return increments;
  }

  private List<OptionalDouble> counted(ToLongFunction<AlarmSample> total) {
    return increments(total).stream().map(n -> n == 0 ? OptionalDouble.empty() : OptionalDouble.of(n)).toList();
  }

  private List<OptionalDouble> nothingEmitted() {
    return Collections.nCopies(periods(), OptionalDouble.empty());
  }

  /**
   * MAX([FILL(counted, 0), FILL(sent, 0), DIFF(FILL(FILL(visible, REPEAT), 0) + FILL(inflight, 0))]): the
   * function's count, or the rise of the DLQ's depth over the period before (a period without a sample keeps
   * the depth before it; the run starts with an empty DLQ). The local function is the only thing that sends to
   * the DLQ, and it counts every send, so the DLQ's NumberOfMessagesSent adds nothing here.
   */
  private List<OptionalDouble> dlqArrivals() {
    List<Long> counted = increments(s -> s.functionMetrics().deadLettered());
    List<OptionalDouble> depth = gauge(AlarmSignal.Statistic.MAXIMUM, s -> s.deadLetters().orElseThrow());
    List<OptionalDouble> datapoints = new ArrayList<>();
    double before = 0;
    for (int i = 0; i < periods(); i++) {
      double now = depth.get(i).orElse(before);
      datapoints.add(OptionalDouble.of(Math.max(counted.get(i), now - before)));
      before = now;
    }
    return datapoints;
  }

  /**
   * IF(waiting > 0 AND FILL(received, 0) + FILL(deleted, 0) == 0, 1, 0), waiting the fewest visible in the
   * period; none for a period without a sample.
   */
  private List<OptionalDouble> stalled() {
    List<OptionalDouble> waiting = gauge(AlarmSignal.Statistic.MINIMUM, AlarmSample::waiting);
    List<Long> received = increments(AlarmSample::sourceReceives);
    List<Long> deleted = increments(AlarmSample::sourceDeletes);
    List<OptionalDouble> datapoints = new ArrayList<>();
    for (int i = 0; i < periods(); i++) {
      OptionalDouble fewest = waiting.get(i);
      datapoints.add(fewest.isEmpty() ? OptionalDouble.empty()
          : OptionalDouble.of(fewest.getAsDouble() > 0 && received.get(i) + deleted.get(i) == 0 ? 1 : 0));
    }
    return datapoints;
  }

  /** IF(FILL(failed, 0) > 0 AND FILL(booked, 0) + FILL(adopted, 0) == 0, 1, 0), none when none was emitted. */
  private List<OptionalDouble> failingWithoutBooking() {
    List<Long> failed = increments(s -> s.functionMetrics().transientFailures());
    List<Long> booked = increments(s -> s.functionMetrics().ordersBooked());
    List<Long> adopted = increments(s -> s.functionMetrics().bookingsAdopted());
    List<OptionalDouble> datapoints = new ArrayList<>();
    for (int i = 0; i < periods(); i++) {
      long settled = booked.get(i) + adopted.get(i);
      datapoints.add(failed.get(i) + settled == 0 ? OptionalDouble.empty()
          : OptionalDouble.of(failed.get(i) > 0 && settled == 0 ? 1 : 0));
    }
    return datapoints;
  }
}
