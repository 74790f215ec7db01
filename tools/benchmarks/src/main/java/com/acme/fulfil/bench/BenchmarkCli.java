package com.acme.fulfil.bench;

import com.acme.fulfil.local.GeneratedReport;
import com.acme.fulfil.local.TimeScale;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code tools/benchmarks/run <what> [options]}: prints the numbers docs/performance.md describes, as Markdown
 * tables. What: {@code artifact}, {@code runtime} (cold start and warm under the runtime interface client against the
 * minimal baseline), {@code cold-start} (JVM option variants in a driver JVM), {@code warm}, {@code cost}, or {@code all};
 * {@code capacity} (docs/capacity.md's model, not part of all).
 *
 * <pre>
 * --artifact PATH   the zip to measure (default function/target/fulfil-order.zip)
 * --runs N          cold starts per variant (default 15)
 * --memory MB       hold child JVMs to Lambda's CPU share for that memory (needs root), e.g. 1024
 * --quick           cold start: only the stack's JVM options, with and without priming
 * --baseline PATH   cold start: another build of the zip to run interleaved with this one
 * --records N       measured records of the warm benchmark (default 1000)
 * --warm-up N       warm: untimed records before the measured ones (default 300)
 * --profile         warm: each child also writes a JDK Flight Recorder profile next to its output
 * --orders N        orders per configuration of the cost benchmark (default 200)
 * --scale N         the cost benchmark runs N times faster than real time (default 10)
 * --seed N          capacity: the model's seed (default 42)
 * --report FILE     artifact, capacity: also write what it prints to FILE, headed by the command, its
 *                   report version, the date and the machine (docs/reports/ holds the ones the docs point to)
 * </pre>
 */
public final class BenchmarkCli {
  private BenchmarkCli() {}

  public static void main(String[] args) throws Exception {
    // ElasticMQ's actor system would otherwise keep the JVM up after the run or a failure.
    int status = 0;
    try {
      run(args);
    } catch (Exception e) {
      e.printStackTrace();
      status = 1;
    }
    System.exit(status);
  }

  private static void run(String[] args) throws Exception {
    if (args.length == 0 || args[0].startsWith("-")) {
      System.err.println("usage: tools/benchmarks/run artifact|runtime|cold-start|warm|cost|capacity|all [--artifact PATH] [--runs N]"
          + " [--memory MB] [--quick] [--records N] [--warm-up N] [--profile] [--orders N] [--scale N] [--report FILE]");
      System.exit(2);
    }
    String what = args[0];
    Path artifact = Path.of(option(args, "--artifact").orElse("function/target/fulfil-order.zip")).toAbsolutePath();
    int runs = Integer.parseInt(option(args, "--runs").orElse("15"));
    int records = Integer.parseInt(option(args, "--records").orElse("1000"));
    int orders = Integer.parseInt(option(args, "--orders").orElse("200"));
    Optional<Integer> memory = option(args, "--memory").map(Integer::parseInt);
    Optional<GeneratedReport> reportKind = switch (what) {
      case "artifact" -> Optional.of(GeneratedReport.ARTIFACT);
      case "capacity" -> Optional.of(GeneratedReport.CAPACITY_MODEL);
      default -> Optional.empty();
    };
    Optional<Path> report = option(args, GeneratedReport.OPTION).map(Path::of);
    if (report.isPresent() && reportKind.isEmpty()) {
      throw new IllegalArgumentException(GeneratedReport.OPTION + " is for artifact and capacity, not " + what);
    }
    // With --report, what goes to standard output is also kept for the file.
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream out = report.isEmpty() ? System.out
        : new PrintStream(new TeeOutputStream(System.out, printed), true, StandardCharsets.UTF_8);
    out.printf(Locale.ROOT, "machine: %d CPUs (%s), %s %s, %s%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.arch"), System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
        loadAverage());

    if (what.equals("artifact") || what.equals("all")) {
      ArtifactReport.of(artifact).print(out, 20);
    }
    if (what.equals("runtime") || what.equals("all")) {
      int rounds = Integer.parseInt(option(args, "--runs").orElse("5"));
      int warm = Integer.parseInt(option(args, "--warm").orElse("200"));
      try (BenchmarkStack stack = BenchmarkStack.start()) {
        RuntimeBenchmark.print(new RuntimeBenchmark(stack, artifact, Files.createTempDirectory("fulfil-order-runtime-"))
            .run(rounds, warm, System.err), out);
      }
    }
    if (what.equals("capacity")) {
      new CapacitySimulation(Long.parseLong(option(args, "--seed").orElse("42"))).print(out);
    }
    if (report.isPresent()) {
      out.flush();
      reportKind.get().write(report.get(), List.of(args).subList(1, args.length),
          printed.toString(StandardCharsets.UTF_8), Clock.systemUTC());
      System.err.println("report: " + report.get().toAbsolutePath());
      return;
    }
    if (what.equals("cost") || what.equals("all")) {
      TimeScale scale = new TimeScale(Integer.parseInt(option(args, "--scale").orElse("10")));
      new CostBenchmark(artifact, scale, Files.createTempFile("fulfil-order-cost-", ".log")).run(orders, out);
    }
    if (what.equals("cold-start") || what.equals("warm") || what.equals("all")) {
      Path work = Files.createTempDirectory("fulfil-order-bench-");
      TaskRoot task = TaskRoot.unpack(artifact, work.resolve("task"));
      Path driver = DriverClasses.writeJar(work.resolve("driver.jar"));
      Optional<CpuLimit> cpu = memory.flatMap(mb -> CpuLimit.create(CpuLimit.forMemory(mb)));
      memory.ifPresent(mb -> out.printf(Locale.ROOT, "sandbox: %d MB, %s%n", mb,
          cpu.map(Object::toString).orElse("CPU not limited")));
      try (BenchmarkStack stack = BenchmarkStack.start()) {
        List<String> sandbox = new ArrayList<>();
        memory.ifPresent(mb -> sandbox.add("-XX:MaxRAM=" + mb + "m"));
        ChildJvm child = new ChildJvm(task, driver, stack.functionEnvironment(), sandbox, work, cpu);
        if (what.equals("cold-start") || what.equals("all")) {
          Map<ColdStartBenchmark.Layout, ChildJvm> children = new EnumMap<>(ColdStartBenchmark.Layout.class);
          children.put(ColdStartBenchmark.Layout.AS_DEPLOYED, child);
          children.put(ColdStartBenchmark.Layout.CLASSES_IN_A_JAR,
              child.withTask(task.withClassesJarred(work.resolve("function-classes.jar"))));
          option(args, "--baseline").ifPresent(baseline -> children.put(ColdStartBenchmark.Layout.BASELINE,
              child.withTask(TaskRoot.unpack(Path.of(baseline).toAbsolutePath(), work.resolve("baseline")))));
          ColdStartBenchmark.print(new ColdStartBenchmark(children, work)
              .run(runs, !List.of(args).contains("--quick"), System.err), out);
        }
        if (what.equals("warm") || what.equals("all")) {
          int warmUp = Integer.parseInt(option(args, "--warm-up").orElse(Integer.toString(WarmBenchmark.DEFAULT_WARM_UP)));
          new WarmBenchmark(child, stack, warmUp).run(records, List.of(args).contains("--profile"), out);
        }
        out.printf(Locale.ROOT, "partner: %d bookings, peak %d POSTs in flight%n",
            stack.partner().bookings().size(), stack.partner().peakConcurrentPosts());
      }
      out.println("child JVM output: " + work);
    }
  }

  private static Optional<String> option(String[] args, String name) {
    for (int i = 1; i < args.length - 1; i++) {
      if (args[i].equals(name)) {
        return Optional.of(args[i + 1]);
      }
    }
    return Optional.empty();
  }

  private static String loadAverage() {
    try {
      return "load average " + Files.readString(Path.of("/proc/loadavg")).strip();
    } catch (IOException e) {
      return "load average unknown";
    }
  }

  /** Writes to the terminal and keeps a copy for the report. */
  private static final class TeeOutputStream extends OutputStream {
    private final OutputStream terminal;
    private final OutputStream copy;

    TeeOutputStream(OutputStream terminal, OutputStream copy) {
      this.terminal = terminal;
      this.copy = copy;
    }

    @Override
    public void write(int b) throws IOException {
      terminal.write(b);
      copy.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      terminal.write(b, off, len);
      copy.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      terminal.flush();
      copy.flush();
    }
  }
}
