package com.acme.fulfil.local.alarm;

import com.acme.fulfil.contract.records.MetricNames;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The function's counts that the partner-failing, DLQ and booked-after-hold alarms read, taken from its standard output as
 * CloudWatch takes them: from the Embedded Metric Format lines (a JSON object whose {@code _aws} names
 * the metrics, with each value at the top level). Fed one output line at a time.
 */
public final class FunctionMetricCounts implements Consumer<String> {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final AtomicLong transientFailures = new AtomicLong();
  private final AtomicLong ordersBooked = new AtomicLong();
  private final AtomicLong bookingsAdopted = new AtomicLong();
  private final AtomicLong deadLettered = new AtomicLong();
  private final AtomicLong bookedAfterHold = new AtomicLong();

  /** Running totals at one moment. */
  public record Totals(long transientFailures, long ordersBooked, long bookingsAdopted, long deadLettered,
      long bookedAfterHold) {
    public static final Totals NONE = new Totals(0, 0, 0, 0, 0);
  }

  @Override
  public void accept(String line) {
    // Cheap test first: most lines are the function's JSON log lines, not metrics.
    if (!line.contains("\"_aws\"")) {
      return;
    }
    JsonNode metrics;
    try {
      metrics = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      return; // a log line that quotes "_aws" is not a metric
    }
    add(metrics, MetricNames.TRANSIENT_FAILURE, transientFailures);
    add(metrics, MetricNames.ORDER_BOOKED, ordersBooked);
    add(metrics, MetricNames.BOOKING_ADOPTED, bookingsAdopted);
    add(metrics, MetricNames.DEAD_LETTERED, deadLettered);
    add(metrics, MetricNames.BOOKING_ADOPTED_AFTER_HOLD, bookedAfterHold);
  }

  public Totals totals() {
    return new Totals(transientFailures.get(), ordersBooked.get(), bookingsAdopted.get(), deadLettered.get(),
        bookedAfterHold.get());
  }

  /** A metric's values: one number, or an array of them when an invocation recorded it several times. */
  private static void add(JsonNode metrics, String name, AtomicLong total) {
    JsonNode value = metrics.path(name);
    if (value.isArray()) {
      value.forEach(v -> total.addAndGet(v.asLong()));
    } else if (value.isNumber()) {
      total.addAndGet(value.asLong());
    }
  }
}
