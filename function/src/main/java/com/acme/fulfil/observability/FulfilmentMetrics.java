package com.acme.fulfil.observability;

import java.time.Duration;
import software.amazon.lambda.powertools.metrics.Metrics;
import software.amazon.lambda.powertools.metrics.model.MetricUnit;

/**
 * The function's CloudWatch metrics, written as Embedded Metric Format on flush. The names are the
 * ones docs/design.md lists ("Metrics"); records of a batch report from several threads at once.
 */
public final class FulfilmentMetrics {
  public static final String ORDER_BOOKED = "OrderBooked";
  public static final String DUPLICATE_SUPPRESSED = "DuplicateSuppressed";
  public static final String BOOKING_ADOPTED = "BookingAdopted";
  public static final String PERMANENT_FAILURE = "PermanentFailure";
  public static final String TRANSIENT_FAILURE = "TransientFailure";
  public static final String IN_PROGRESS_ELSEWHERE = "InProgressElsewhere";
  public static final String NEAR_DLQ = "ReceiveCountNearDlq";
  /**
   * A message on its way to the DLQ, counted where it is decided: sent there by the function, or failed on
   * its last receive, after which the redrive policy moves it when it next returns. The DLQ alarm's count.
   */
  public static final String DEAD_LETTERED = "DeadLettered";
  public static final String PARTNER_LATENCY = "PartnerLatency";
  /** A record with neither a traceparent attribute nor an AWSTraceHeader: followed by its order id alone. */
  public static final String TRACE_CONTEXT_MISSING = "TraceContextMissing";
  /** A record whose trace context is not W3C's format (or X-Ray's): ignored, the order booked as usual. */
  public static final String TRACE_CONTEXT_MALFORMED = "TraceContextMalformed";

  private final Metrics metrics;

  public FulfilmentMetrics(Metrics metrics) {
    this.metrics = metrics;
  }

  public void count(String name) {
    synchronized (metrics) {
      metrics.addMetric(name, 1, MetricUnit.COUNT);
    }
  }

  public void partnerLatency(Duration latency) {
    synchronized (metrics) {
      // Fractions kept: a warm record's own overhead is the invocation minus this, a few milliseconds.
      metrics.addMetric(PARTNER_LATENCY, latency.toNanos() / 1e6, MetricUnit.MILLISECONDS);
    }
  }

  /** Writes what the invocation recorded; called once at its end. */
  public void flush() {
    synchronized (metrics) {
      metrics.flush();
    }
  }
}
