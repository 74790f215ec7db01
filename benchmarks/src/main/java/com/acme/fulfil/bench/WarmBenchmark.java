package com.acme.fulfil.bench;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Warm per-record overhead: a fresh child JVM per JVM setting, a warm-up, then one order per invocation,
 * each timed around {@code handleRequest}. Included: parsing and validating the message, the idempotency claim
 * (a conditional PutItem) and its completion (UpdateItem) against DynamoDB Local over HTTP, the
 * booking POST to a partner on loopback that answers at once, EMF metrics and the JSON log lines on
 * standard output (to a file). The API key is cached after the first invocation, as in Lambda.
 * Nothing is subtracted.
 */
final class WarmBenchmark {
  static final int WARM_UP = 300;

  private final ChildJvm child;
  private final BenchmarkStack stack;

  WarmBenchmark(ChildJvm child, BenchmarkStack stack) {
    this.child = child;
    this.stack = stack;
  }

  void run(int records, PrintStream out) {
    out.println("| what | warm-up | measured | median | p90 | p99 | max | CPU per record | peak RSS |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (String options : List.of(ColdStartBenchmark.C1_ONLY, "")) {
      ChildJvm.Result result = child.run(options, List.of("warm", Integer.toString(WARM_UP), Integer.toString(records)));
      if (!"0".equals(result.values().get("failures"))) {
        throw new IllegalStateException("warm records failed: " + result.values().get("failures"));
      }
      List<Double> millis = Arrays.stream(result.values().get("nanos").split(","))
          .map(n -> Long.parseLong(n) / 1e6).toList();
      row(out, "one order per invocation, " + (options.isEmpty() ? "JDK defaults" : options), millis,
          String.format(Locale.ROOT, "%.2f ms", Long.parseLong(result.values().get("cpuNanosPerRecord")) / 1e6),
          Long.parseLong(result.values().get("peakRssKb")) / 1024 + " MB");
    }
    // What DynamoDB Local alone takes for the two writes of a record (the claim and its completion),
    // from the benchmark's JVM: the floor under the function's number on this machine.
    row(out, "floor: conditional PutItem + UpdateItem on DynamoDB Local", stack.idempotencyWrites(WARM_UP, records), "-", "-");
  }

  private static void row(PrintStream out, String what, List<Double> millis, String cpu, String rss) {
    out.printf(Locale.ROOT, "| %s | %d | %d | **%.2f ms** | %.2f ms | %.2f ms | %.2f ms | %s | %s |%n", what,
        WARM_UP, millis.size(), Stats.median(millis), Stats.percentile(millis, 90), Stats.percentile(millis, 99),
        Stats.percentile(millis, 100), cpu, rss);
  }
}
