package com.acme.fulfil.observability;

import com.acme.fulfil.contract.MetricNames;
import java.time.Duration;
import software.amazon.lambda.powertools.metrics.Metrics;
import software.amazon.lambda.powertools.metrics.model.MetricUnit;

/**
 * The function's CloudWatch metrics, written as Embedded Metric Format on flush. The names are the
 * contract's {@link MetricNames}, which docs/design.md lists ("Metrics"); records of a batch report from
 * several threads at once.
 */
public final class FulfilmentMetrics {
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
      metrics.addMetric(MetricNames.PARTNER_LATENCY, latency.toNanos() / 1e6, MetricUnit.MILLISECONDS);
    }
  }

  /** Writes what the invocation recorded; called once at its end. */
  public void flush() {
    synchronized (metrics) {
      metrics.flush();
    }
  }
}
