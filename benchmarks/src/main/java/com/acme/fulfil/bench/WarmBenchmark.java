package com.acme.fulfil.bench;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Warm per-record overhead: one fresh child JVM, a warm-up, then one order per invocation, each timed
 * around {@code handleRequest}. Included: parsing and validating the message, the idempotency claim
 * (a conditional PutItem) and its completion (UpdateItem) against DynamoDB Local over HTTP, the
 * booking POST to a partner on loopback that answers at once, EMF metrics and the JSON log lines on
 * standard output (to a file). The API key is cached after the first invocation, as in Lambda.
 * Nothing is subtracted.
 */
final class WarmBenchmark {
  static final int WARM_UP = 300;

  private final ChildJvm child;

  WarmBenchmark(ChildJvm child) {
    this.child = child;
  }

  void run(int records, PrintStream out) {
    out.println("| JVM options | warm-up | measured records | median | p90 | p99 | max | peak RSS |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
    ChildJvm.Result result = child.run(ColdStartBenchmark.C1_ONLY,
        List.of("warm", Integer.toString(WARM_UP), Integer.toString(records)));
    if (!"0".equals(result.values().get("failures"))) {
      throw new IllegalStateException("warm records failed: " + result.values().get("failures"));
    }
    List<Double> millis = Arrays.stream(result.values().get("nanos").split(","))
        .map(n -> Long.parseLong(n) / 1e6).toList();
    out.printf(Locale.ROOT, "| %s | %d | %d | **%.2f ms** | %.2f ms | %.2f ms | %.2f ms | %d MB |%n", ColdStartBenchmark.C1_ONLY,
        WARM_UP, millis.size(), Stats.median(millis), Stats.percentile(millis, 90), Stats.percentile(millis, 99),
        Stats.percentile(millis, 100), Long.parseLong(result.values().get("peakRssKb")) / 1024);
  }
}
