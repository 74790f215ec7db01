package com.acme.fulfil.bench;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.aws.QueueRef;
import com.acme.fulfil.local.esm.SqsEventJson;
import com.acme.fulfil.local.lambda.FunctionConfiguration;
import com.acme.fulfil.local.lambda.InvokeResult;
import com.acme.fulfil.local.lambda.JavaRuntime;
import com.acme.fulfil.local.lambda.LocalLambda;
import com.acme.fulfil.local.lambda.RuntimeHost;
import com.acme.fulfil.local.runtime.PackagedFunction;
import com.acme.fulfil.local.scenario.OrderStream;
import com.acme.fulfil.local.scenario.ScenarioOrder;
import com.acme.fulfil.order.OrderMessage;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Cold start and warm invocations the way Lambda runs them: each environment a fresh JVM under the
 * runtime interface client, timed from process start to the first response through the Runtime API
 * (the client's own start included), then one-record invocations on the warm environment; fulfil-order
 * against the minimal hand-written baseline ({@code baseline.MinimalHandler}, packaged with the same
 * SDK jars), interleaved round by round so that a busy moment of the machine spreads over both.
 */
final class RuntimeBenchmark {
  /** Jars of the function's that the baseline does without. */
  private static final List<String> NOT_IN_THE_BASELINE = List.of("powertools-", "aspectj", "okhttp", "okio", "kotlin",
      "jmespath", "crac-", "fulfil-");

  private final BenchmarkStack stack;
  private final Path work;
  private final Map<String, Path> taskRoots = new LinkedHashMap<>();
  private final List<Variant> variants = new ArrayList<>();
  private final AtomicLong orders = new AtomicLong();

  RuntimeBenchmark(BenchmarkStack stack, Path artifact, Path work) {
    this.stack = stack;
    this.work = work;
    taskRoots.put("fulfil-order", PackagedFunction.unpack(artifact, work.resolve("fulfil-order")));
    taskRoots.put("minimal baseline", baselineTaskRoot(taskRoots.get("fulfil-order"), work.resolve("baseline")));
    for (JavaRuntime runtime : List.of(JavaRuntime.JAVA_21, JavaRuntime.JAVA_25)) {
      taskRoots.forEach((name, root) -> variants.add(new Variant(name + ", " + runtime.id(), name, root, runtime)));
    }
  }

  /** One artifact on one runtime's settings: java21's (C1 only), or java25's defaults with SnapStart (C1 and C2). */
  private record Variant(String name, String artifact, Path taskRoot, JavaRuntime runtime) {
    RuntimeHost host(Path workDir) {
      return runtime == JavaRuntime.JAVA_21 ? RuntimeHost.onDemand(workDir, runtime) : RuntimeHost.snapStart(workDir, runtime);
    }

    void javaToolOptions(Map<String, String> environment) {
      if (runtime == JavaRuntime.JAVA_21) {
        environment.put(FunctionEnvironment.JAVA_TOOL_OPTIONS, FunctionEnvironment.C1_ONLY);
      }
    }
  }

  /** Per variant: cold starts and warm invocations in milliseconds, peak resident memory in MB, package size in MB. */
  record Row(String variant, List<Double> coldMs, List<Double> warmMs, List<Double> peakRssMb, double packageMb) {}

  List<Row> run(int rounds, int warmInvocations, PrintStream progress) {
    Map<String, Row> rows = new LinkedHashMap<>();
    variants.forEach(variant -> rows.put(variant.name(), new Row(variant.name(), new ArrayList<>(), new ArrayList<>(),
        new ArrayList<>(), megabytes(variant.taskRoot()))));
    for (int round = 0; round <= rounds; round++) {
      for (Variant variant : variants) {
        Measured measured = once(variant, warmInvocations);
        progress.printf(Locale.ROOT, "round %d %s: cold %.0f ms, warm median %.1f ms, peak RSS %.0f MB%n", round,
            variant.name(), measured.coldMs(), Stats.median(measured.warmMs()), measured.peakRssMb());
        if (round > 0) { // round 0 warms the page cache and the stack, and makes the runtime's class archive
          Row row = rows.get(variant.name());
          row.coldMs().add(measured.coldMs());
          row.warmMs().addAll(measured.warmMs());
          row.peakRssMb().add(measured.peakRssMb());
        }
      }
    }
    return List.copyOf(rows.values());
  }

  private record Measured(double coldMs, List<Double> warmMs, double peakRssMb) {}

  private Measured once(Variant variant, int warmInvocations) {
    String handler = variant.artifact().equals("fulfil-order") ? PackagedFunction.HANDLER
        : "com.acme.fulfil.bench.baseline.MinimalHandler::handleRequest";
    Map<String, String> environment = new HashMap<>(stack.functionEnvironment());
    environment.putAll(TimingBudget.defaults().functionEnvironment());
    variant.javaToolOptions(environment);
    FunctionConfiguration function = new FunctionConfiguration(variant.taskRoot(), handler, "fulfil-order", "us-east-1", 512,
        Duration.ofSeconds(300), environment);
    try (LocalLambda lambda = new LocalLambda(function, variant.host(work.resolve("runtime-" + UUID.randomUUID())),
        line -> { }, Map.of())) {
      long started = System.nanoTime();
      expectResponse(lambda.invoke(event()));
      double cold = (System.nanoTime() - started) / 1e6;
      List<Double> warm = new ArrayList<>();
      for (int i = 0; i < warmInvocations; i++) {
        byte[] event = event();
        long start = System.nanoTime();
        expectResponse(lambda.invoke(event));
        warm.add((System.nanoTime() - start) / 1e6);
      }
      return new Measured(cold, warm, lambda.environmentPids().stream().mapToDouble(RuntimeBenchmark::peakRssMb).sum());
    }
  }

  private byte[] event() {
    ScenarioOrder order = new OrderStream().generate("ORD-BENCH-" + orders.incrementAndGet() + "-", 1, 0, 0, 7).getFirst();
    Message message = Message.builder()
        .messageId(UUID.randomUUID().toString())
        .receiptHandle("benchmark-" + order.orderId())
        .body(order.body())
        .md5OfBody("0")
        .attributesWithStrings(Map.of(
            MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT.toString(), "1",
            MessageSystemAttributeName.SENT_TIMESTAMP.toString(), Long.toString(System.currentTimeMillis()),
            MessageSystemAttributeName.SENDER_ID.toString(), "AIDABENCHMARK",
            MessageSystemAttributeName.APPROXIMATE_FIRST_RECEIVE_TIMESTAMP.toString(), Long.toString(System.currentTimeMillis())))
        .build();
    QueueRef queue = new QueueRef(OrderMessage.QUEUE_NAME, "http://localhost/000000000000/" + OrderMessage.QUEUE_NAME,
        "arn:aws:sqs:us-east-1:000000000000:" + OrderMessage.QUEUE_NAME);
    return new SqsEventJson(queue).toEvent(List.of(message));
  }

  private static void expectResponse(InvokeResult result) {
    if (!(result instanceof InvokeResult.Response response) || response.text().contains("itemIdentifier")) {
      throw new IllegalStateException("the function did not process the record: " + result);
    }
  }

  /** {@code VmHWM}: the most resident memory the process ever had. */
  private static double peakRssMb(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
        }
      }
    } catch (IOException e) {
      // not Linux: no number
    }
    return Double.NaN;
  }

  /** The baseline as its own task root: its one class, and the function's jars minus what it does without. */
  private static Path baselineTaskRoot(Path function, Path into) {
    try {
      Path classFile = Path.of(RuntimeBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .resolve("com/acme/fulfil/bench/baseline/MinimalHandler.class");
      Path target = into.resolve("com/acme/fulfil/bench/baseline/MinimalHandler.class");
      Files.createDirectories(target.getParent());
      Files.copy(classFile, target);
      Files.createDirectories(into.resolve("lib"));
      try (Stream<Path> jars = Files.list(function.resolve("lib"))) {
        for (Path jar : jars.toList()) {
          String name = jar.getFileName().toString();
          if (NOT_IN_THE_BASELINE.stream().noneMatch(name::startsWith)) {
            Files.copy(jar, into.resolve("lib").resolve(name));
          }
        }
      }
      return into;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static double megabytes(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(file -> {
        try {
          return Files.size(file);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).sum() / 1e6;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void print(List<Row> rows, PrintStream out) {
    out.println();
    out.println("under the runtime interface client (medians; cold = process start to first response)");
    out.printf(Locale.ROOT, "%-28s %6s %10s %10s %12s %12s%n", "variant", "runs", "cold ms", "warm ms", "peak RSS MB",
        "unpacked MB");
    for (Row row : rows) {
      out.printf(Locale.ROOT, "%-28s %6d %10.0f %10.1f %12.0f %12.1f%n", row.variant(), row.coldMs().size(),
          Stats.median(row.coldMs()), Stats.median(row.warmMs()), Stats.median(row.peakRssMb()), row.packageMb());
    }
    // Rows come in pairs, fulfil-order then the baseline, one pair per runtime.
    for (int i = 0; i + 1 < rows.size(); i += 2) {
      Row ours = rows.get(i);
      Row baseline = rows.get(i + 1);
      out.printf(Locale.ROOT, "ratios %s / %s: cold x%.2f, warm x%.2f, peak RSS x%.2f%n", ours.variant(), baseline.variant(),
          Stats.median(ours.coldMs()) / Stats.median(baseline.coldMs()),
          Stats.median(ours.warmMs()) / Stats.median(baseline.warmMs()),
          Stats.median(ours.peakRssMb()) / Stats.median(baseline.peakRssMb()));
    }
  }
}
