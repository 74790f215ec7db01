package com.acme.fulfil.observability;

import com.acme.fulfil.contract.records.MetricNames;
import java.time.Duration;
import software.amazon.lambda.powertools.metrics.Metrics;
import software.amazon.lambda.powertools.metrics.model.MetricUnit;

/** The function's CloudWatch metrics ({@link MetricNames}) in Embedded Metric Format, from several threads at once. */
public final class FulfilmentMetrics {
  private final Metrics metrics;

  public FulfilmentMetrics(Metrics metrics) {
    this.metrics = metrics;
  }

  public synchronized void count(String name) {
    metrics.addMetric(name, 1, MetricUnit.COUNT);
  }

  /** Fractions kept: a warm record's own overhead is the invocation minus this, a few milliseconds. */
  public synchronized void partnerLatency(Duration latency) {
    metrics.addMetric(MetricNames.PARTNER_LATENCY, latency.toNanos() / 1e6, MetricUnit.MILLISECONDS);
  }

  /** Writes what the invocation recorded; called once at its end. */
  public synchronized void flush() {
    metrics.flush();
  }
}
