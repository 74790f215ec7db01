package com.acme.fulfil.bench;

import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Warm per-record overhead: a fresh child JVM per JVM setting, a warm-up, then one order per invocation,
 * each timed around {@code handleRequest}. Included: parsing and validating the message, the idempotency
 * claim (a conditional PutItem) and its completion (UpdateItem) against the DynamoDB emulator over HTTP, the
 * booking POST to a partner on loopback that answers at once, EMF metrics and the JSON log lines on
 * standard output (to a file). The API key is cached after the first invocation, as in Lambda.
 *
 * <p>Each record is reported twice: whole, and without its partner call, which is the invocation minus the
 * {@code PartnerLatency} the function itself wrote into that invocation's EMF line (the booking call
 * through the partner client, request to parsed answer).
 */
final class WarmBenchmark {
  /**
   * Records a function sandbox has handled before it counts as warm: a few hundred is what one sees in
   * its life at one booking every 40 s or so.
   */
  static final int DEFAULT_WARM_UP = 300;
  /**
   * Bare write pairs that warm the emulator before anything is timed: AWS's servers are always warm, an
   * emulator that starts with the benchmark is not, and its warm-up must not count as the function's.
   */
  static final int EMULATOR_WARM_UP = 5_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ChildJvm child;
  private final BenchmarkStack stack;
  private final int warmUp;

  WarmBenchmark(ChildJvm child, BenchmarkStack stack, int warmUp) {
    this.child = child;
    this.stack = stack;
    this.warmUp = warmUp;
  }

  /**
   * @param profile whether each child also records a JDK Flight Recorder profile ({@code warm-*.jfr} in the
   *     child's work directory) of where the time goes, for {@code jfr print} or JDK Mission Control
   */
  void run(int records, boolean profile, PrintStream out) {
    out.println("| what | warm-up | measured | median | p90 | p99 | max | CPU per record | peak RSS |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    row(out, "floor: the emulator's conditional PutItem + UpdateItem, bare HTTP, no SDK", EMULATOR_WARM_UP,
        stack.idempotencyWrites(EMULATOR_WARM_UP, records), "-", "-");
    for (String options : List.of(FunctionEnvironment.C1_ONLY, "")) {
      String toolOptions = profile ? (options + " " + flightRecording(options)).strip() : options;
      ChildJvm.Result result = child.run(toolOptions, List.of("warm", Integer.toString(warmUp), Integer.toString(records)));
      if (!"0".equals(result.values().get("failures"))) {
        throw new IllegalStateException("warm records failed: " + result.values().get("failures"));
      }
      List<Double> millis = Arrays.stream(result.values().get("nanos").split(","))
          .map(n -> Long.parseLong(n) / 1e6).toList();
      List<Double> partner = partnerLatencies(records);
      List<Double> own = new ArrayList<>();
      for (int i = 0; i < records; i++) {
        own.add(millis.get(i) - partner.get(i));
      }
      String jvm = options.isEmpty() ? "JDK defaults" : options;
      String cpu = String.format(Locale.ROOT, "%.2f ms", Long.parseLong(result.values().get("cpuNanosPerRecord")) / 1e6);
      String rss = Long.parseLong(result.values().get("peakRssKb")) / 1024 + " MB";
      row(out, "one order per invocation, " + jvm, warmUp, millis, cpu, rss);
      row(out, "the same without its partner call, " + jvm, warmUp, own, "-", "-");
      row(out, "its partner call alone (PartnerLatency), " + jvm, warmUp, partner, "-", "-");
    }
  }

  /** The measured records' partner calls, in milliseconds, from the EMF lines the child wrote in order. */
  private List<Double> partnerLatencies(int records) {
    List<Double> all;
    try (Stream<String> lines = Files.lines(child.workDirectory().resolve(ChildJvm.STDOUT))) {
      all = lines.filter(line -> line.startsWith("{\"_aws\"")).map(WarmBenchmark::partnerLatency)
          .filter(millis -> millis >= 0).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (all.size() != warmUp + records) {
      throw new IllegalStateException("expected " + (warmUp + records) + " PartnerLatency values, found " + all.size());
    }
    return all.subList(warmUp, all.size());
  }

  private static double partnerLatency(String emfLine) {
    try {
      JsonNode latency = JSON.readTree(emfLine).get(MetricNames.PARTNER_LATENCY);
      return latency == null ? -1 : latency.asDouble();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String flightRecording(String options) {
    String name = options.isEmpty() ? "jdk-defaults" : "c1-only";
    return "-XX:StartFlightRecording=settings=profile,filename=" + child.workDirectory().resolve("warm-" + name + ".jfr");
  }

  private static void row(PrintStream out, String what, int warmUp, List<Double> millis, String cpu, String rss) {
    out.printf(Locale.ROOT, "| %s | %d | %d | **%.2f ms** | %.2f ms | %.2f ms | %.2f ms | %s | %s |%n", what,
        warmUp, millis.size(), Stats.median(millis), Stats.percentile(millis, 90), Stats.percentile(millis, 99),
        Stats.percentile(millis, 100), cpu, rss);
  }
}
