package com.acme.fulfil.bench;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Cold start to the first booked record, in fresh JVMs, split into the JVM's own start (launch to the
 * driver's main), handler construction (clients, configuration, Powertools), SnapStart priming when
 * asked, and the first invocation (one order, booked against a partner that answers at once). Every
 * variant runs {@code runs} times, interleaved so that a busy moment of the machine spreads over all of
 * them; the medians are reported.
 */
final class ColdStartBenchmark {
  private final Map<Layout, ChildJvm> children;
  private final Path workDirectory;

  /** Which artifact a child runs, and how it is laid out. */
  enum Layout {
    /** The artifact as Lambda unpacks it. */
    AS_DEPLOYED,
    /** The same with the root's classes in a jar, which class-data sharing needs. */
    CLASSES_IN_A_JAR,
    /** Another build of the function to compare with (--baseline). */
    BASELINE
  }

  ColdStartBenchmark(Map<Layout, ChildJvm> children, Path workDirectory) {
    this.children = Map.copyOf(children);
    this.workDirectory = workDirectory;
  }

  /**
   * One way of starting the function: its JVM options, which artifact and layout, and whether the
   * checkpoint hooks run before the first invocation.
   */
  record Variant(String name, String javaToolOptions, Layout layout, boolean primed) {}

  /** Medians in milliseconds. */
  record Row(Variant variant, int runs, double jvmStart, double construction, double priming, double firstInvocation,
      double total, double fastest, double slowest, double cpu) {}

  /**
   * @param allVariants every JVM setting compared, or only the stack's (C1 only) with and without priming
   */
  List<Row> run(int runs, boolean allVariants, PrintStream progress) {
    Path archive = workDirectory.resolve("fulfil-order-appcds.jsa");
    String appCds = "-XX:SharedArchiveFile=" + archive;
    if (allVariants) {
      // Training run for application class-data sharing: the classes one cold invocation loads.
      children.get(Layout.CLASSES_IN_A_JAR).run("-XX:ArchiveClassesAtExit=" + archive, List.of("cold"));
    }
    List<Variant> variants = new ArrayList<>();
    if (children.containsKey(Layout.BASELINE)) {
      variants.add(new Variant("C1 only, baseline artifact", FunctionEnvironment.C1_ONLY, Layout.BASELINE, false));
    }
    variants.add(new Variant("C1 only", FunctionEnvironment.C1_ONLY, Layout.AS_DEPLOYED, false));
    if (allVariants) {
      variants.addAll(List.of(
          new Variant("JDK defaults", "", Layout.AS_DEPLOYED, false),
          new Variant("no CDS at all (-Xshare:off)", "-Xshare:off", Layout.AS_DEPLOYED, false),
          new Variant("C1 only, classes in a jar", FunctionEnvironment.C1_ONLY, Layout.CLASSES_IN_A_JAR, false),
          new Variant("JDK defaults + AppCDS (classes in a jar)", appCds, Layout.CLASSES_IN_A_JAR, false),
          new Variant("C1 only + AppCDS (classes in a jar)", FunctionEnvironment.C1_ONLY + " " + appCds, Layout.CLASSES_IN_A_JAR, false)));
    }
    variants.add(new Variant("C1 only, primed (SnapStart)", FunctionEnvironment.C1_ONLY, Layout.AS_DEPLOYED, true));
    Map<Variant, List<ChildJvm.Result>> results = new LinkedHashMap<>();
    variants.forEach(v -> results.put(v, new ArrayList<>()));
    // A discarded first round: the page cache and the parent's servers warm up.
    for (int round = 0; round <= runs; round++) {
      for (Variant variant : variants) {
        ChildJvm.Result result = children.get(variant.layout()).run(variant.javaToolOptions(),
            variant.primed() ? List.of("cold", "--prime") : List.of("cold"));
        if (!"0".equals(result.values().get("failures"))) {
          throw new IllegalStateException(variant.name() + ": the first invocation did not book its order: " + result.values());
        }
        if (round > 0) {
          results.get(variant).add(result);
        }
      }
      progress.printf(Locale.ROOT, "cold start: round %d of %d done%n", round, runs);
    }
    return variants.stream().map(v -> summarise(v, results.get(v))).toList();
  }

  private static Row summarise(Variant variant, List<ChildJvm.Result> results) {
    List<Double> jvm = new ArrayList<>();
    List<Double> construction = new ArrayList<>();
    List<Double> priming = new ArrayList<>();
    List<Double> invocation = new ArrayList<>();
    List<Double> total = new ArrayList<>();
    List<Double> cpu = new ArrayList<>();
    for (ChildJvm.Result r : results) {
      jvm.add(millis(r.micros("main") - r.launchedMicros()));
      construction.add(millis(r.micros("constructed") - r.micros("main")));
      priming.add(millis(r.micros("primed") - r.micros("constructed")));
      invocation.add(millis(r.micros("invoked") - r.micros("primed")));
      total.add(millis(r.micros("invoked") - r.launchedMicros()));
      cpu.add(millis(r.micros("cpuMicros")));
    }
    return new Row(variant, results.size(), Stats.median(jvm), Stats.median(construction), Stats.median(priming),
        Stats.median(invocation), Stats.median(total), Stats.percentile(total, 0), Stats.percentile(total, 100), Stats.median(cpu));
  }

  static void print(List<Row> rows, PrintStream out) {
    out.println("| JVM options | runs | JVM start | handler construction | priming | first invocation | launch to first booked record (median) | fastest | slowest | CPU time |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (Row r : rows) {
      out.printf(Locale.ROOT, "| %s | %d | %.0f ms | %.0f ms | %s | %.0f ms | **%.0f ms** | %.0f ms | %.0f ms | %.0f ms |%n",
          r.variant().name(), r.runs(), r.jvmStart(), r.construction(),
          r.variant().primed() ? String.format(Locale.ROOT, "%.0f ms", r.priming()) : "-",
          r.firstInvocation(), r.total(), r.fastest(), r.slowest(), r.cpu());
    }
  }

  private static double millis(long micros) {
    return micros / 1000.0;
  }
}
