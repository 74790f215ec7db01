package com.acme.fulfil.local.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FunctionMetricCountsTest {
  @Test
  void countsTheAlarmsMetricsFromEmbeddedMetricFormatLinesAndNothingFromLogLines() {
    FunctionMetricCounts counts = new FunctionMetricCounts();

    counts.accept("{\"_aws\":{\"Timestamp\":1795643964632,\"CloudWatchMetrics\":[{\"Namespace\":\"FulfilOrder\",\"Metrics\":"
        + "[{\"Name\":\"TransientFailure\",\"Unit\":\"Count\"},{\"Name\":\"TraceContextMissing\",\"Unit\":\"Count\"}],"
        + "\"Dimensions\":[[\"Service\"]]}]},\"TraceContextMissing\":1.0,\"Service\":\"fulfil-order\",\"TransientFailure\":1.0}");
    counts.accept("{\"_aws\":{\"CloudWatchMetrics\":[{\"Metrics\":[{\"Name\":\"OrderBooked\"}]}]},\"OrderBooked\":[1.0,1.0],"
        + "\"BookingAdopted\":1.0,\"DeadLettered\":[1.0,1.0,1.0],\"BookingAdoptedAfterHold\":1.0}");
    counts.accept("{\"level\":\"WARN\",\"message\":\"partner unavailable\",\"TransientFailure\":5}");
    counts.accept("not JSON, though it quotes \"_aws\"");

    assertThat(counts.totals()).isEqualTo(new FunctionMetricCounts.Totals(1, 2, 1, 3, 1));
  }
}
