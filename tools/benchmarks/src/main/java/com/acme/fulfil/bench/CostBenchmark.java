package com.acme.fulfil.bench;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.EmbeddedAws;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.esm.Invocation;
import com.acme.fulfil.local.esm.MappingListener;
import com.acme.fulfil.local.scenario.LocalDeployment;
import com.acme.fulfil.local.scenario.OrderStream;
import com.acme.fulfil.local.scenario.ScenarioOrder;
import com.acme.fulfil.sim.Booking;
import com.acme.fulfil.sim.LatencyModel;
import com.acme.fulfil.sim.SimulatedPartner;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * GB-seconds per order under the incident's latency shape (a peak around 40 s, a tail to 280 s), batch
 * size 1 against batch size 10 with the records of a batch processed at once: the packaged function
 * behind the local event source mapping in scaled time, the same order stream for both, every
 * invocation's duration taken from the mapping and scaled back to real time. Lambda bills an
 * invocation for as long as it runs, so a batch costs as much as its slowest record.
 *
 * <p>Also reports what the partner sees (its peak of bookings in flight) and whether any record was
 * refused a booking for lack of time, timed out or was booked twice.
 */
final class CostBenchmark {
  /** The mapping's maximum concurrency, the stack's default. */
  static final int MAX_CONCURRENCY = 10;
  /** The lowest maximum concurrency an SQS event source mapping accepts. */
  static final int LEAST_CONCURRENCY = 2;
  /** GB-seconds scale linearly with memory; this is the stack's setting the table is priced at. */
  static final int MEMORY_MB = 512;
  private static final String KEY = "partner-key-cost";
  private static final long SEED = 7;

  private final Path artifact;
  private final TimeScale scale;
  private final Path functionOutput;

  /**
   * @param scale how much faster than real time the run goes. The function's own work is not scaled,
   *     so at 1/30 the 10 s it keeps between the partner's worst case and its timeout shrinks to 333 ms,
   *     less than a busy machine can promise: 1/10 (1 s) is the default.
   * @param functionOutput where the functions' standard output (JSON log lines, EMF) goes
   */
  CostBenchmark(Path artifact, TimeScale scale, Path functionOutput) {
    this.artifact = artifact;
    this.scale = scale;
    this.functionOutput = functionOutput;
  }

  /** One way of consuming the queue: the timing numbers and the mapping's maximum concurrency. */
  record Configuration(String name, TimingBudget budget, int maxConcurrency) {}

  /** What one configuration cost, in real (unscaled) time. */
  record Result(Configuration configuration, int orders, int booked, int bookedTwice, int invocations,
      double recordsPerInvocation, double invocationSecondsMedian, double invocationSecondsMax, double gbSecondsPerOrder,
      int partnerPeak, int timedOut, int recordsRetried, double lastBookedMinutes) {}

  void run(int orders, PrintStream out) throws InterruptedException, IOException {
    TimingBudget batched = TimingBudget.builder().batchSize(10).recordConcurrency(10)
        .batchingWindow(Duration.ofSeconds(30)).build();
    List<Configuration> configurations = List.of(
        new Configuration("batch 1, no window, max concurrency 10", TimingBudget.builder().batchSize(1).build(),
            MAX_CONCURRENCY),
        new Configuration("batch 10 at once, 30 s window, max concurrency 10", batched, MAX_CONCURRENCY),
        new Configuration("batch 10 at once, 30 s window, max concurrency 2", batched, LEAST_CONCURRENCY));
    List<ScenarioOrder> stream = new OrderStream().generate("ORD-COST-", orders, 0, 0, SEED);
    // Sent over 5 minutes of real time: about 40 orders a minute, enough to fill a batch inside its window.
    Duration sendSpread = scale.toLocal(Duration.ofMinutes(5));
    List<Result> results;
    PrintStream stdout = System.out;
    try (PrintStream function = new PrintStream(Files.newOutputStream(functionOutput), true, StandardCharsets.UTF_8);
        EmbeddedAws aws = EmbeddedAws.start();
        SqsClient sqs = aws.connection().sqsClient();
        DynamoDbClient dynamoDb = aws.connection().dynamoDbClient();
        SecretsManagerClient secrets = aws.connection().secretsManagerClient()) {
      System.setOut(function);
      OrdersStack stack = new OrdersStack(sqs, dynamoDb, secrets);
      List<Run> runs = new ArrayList<>();
      for (Configuration configuration : configurations) {
        runs.add(new Run(configuration, aws, stack, sqs));
      }
      runs.forEach(Run::start);
      long start = System.nanoTime();
      Instant sendingStarted = Instant.now();
      for (int i = 0; i < stream.size(); i++) {
        long due = start + sendSpread.toNanos() * i / stream.size();
        Thread.sleep(Duration.ofNanos(Math.max(0, due - System.nanoTime())));
        ScenarioOrder order = stream.get(i);
        runs.forEach(run -> run.send(order));
      }
      Duration deadline = scale.toLocal(Duration.ofMinutes(30));
      for (Run run : runs) {
        run.awaitBooked(orders, deadline.minus(Duration.ofNanos(System.nanoTime() - start)));
      }
      results = runs.stream().map(run -> run.finish(orders, sendingStarted)).toList();
    } finally {
      System.setOut(stdout);
    }
    out.printf(Locale.ROOT, "%d orders over 5 minutes of real time, local run at %s; function output: %s%n",
        orders, scale, functionOutput);
    print(results, out);
    printModel(out);
  }

  /** One configuration's deployment, partner and tally. */
  private final class Run implements MappingListener {
    private final Configuration configuration;
    private final SimulatedPartner partner;
    private final LocalDeployment deployment;
    private final SqsClient sqs;
    private final List<Invocation> settled = Collections.synchronizedList(new ArrayList<>());

    Run(Configuration configuration, EmbeddedAws aws, OrdersStack stack, SqsClient sqs) {
      this.configuration = configuration;
      this.sqs = sqs;
      this.partner = SimulatedPartner.builder().apiKey(KEY).latency(LatencyModel.incident())
          .timeScaleDivisor(scale.divisor()).seed(SEED).start();
      String name = "cost-batch-" + configuration.budget().batchSize() + "-concurrency-" + configuration.maxConcurrency();
      Deployment local = Deployment.fulfilOrder(name, name + "-orders", configuration.budget().scaledDown(scale.divisor()),
          configuration.maxConcurrency(), scale.pollWait(), artifact);
      this.deployment = new LocalDeployment(local, aws.connection(), stack, sqs, partner, this, Map.of());
    }

    @Override
    public void settled(Invocation invocation) {
      settled.add(invocation);
    }

    void start() {
      deployment.start();
    }

    void send(ScenarioOrder order) {
      sqs.sendMessage(request -> request.queueUrl(deployment.queues().source().url()).messageBody(order.body()));
    }

    void awaitBooked(int orders, Duration timeout) throws InterruptedException {
      partner.awaitBookings(orders, timeout.isNegative() ? Duration.ZERO : timeout);
    }

    Result finish(int orders, Instant sendingStarted) {
      deployment.close();
      partner.close();
      List<Invocation> invocations = List.copyOf(settled);
      Map<String, Long> bookingsPerOrder = partner.bookings().stream()
          .collect(Collectors.groupingBy(Booking::orderId, Collectors.counting()));
      List<Double> seconds = invocations.stream().map(i -> real(i.duration())).toList();
      double gbSeconds = seconds.stream().mapToDouble(Double::doubleValue).sum() * MEMORY_MB / 1024.0;
      return new Result(configuration, orders, bookingsPerOrder.size(),
          (int) bookingsPerOrder.values().stream().filter(n -> n > 1).count(),
          invocations.size(),
          invocations.stream().mapToInt(i -> i.deliveries().size()).average().orElse(0),
          Stats.median(seconds), Stats.percentile(seconds, 100),
          gbSeconds / Math.max(1, bookingsPerOrder.size()),
          partner.peakConcurrentPosts(),
          (int) invocations.stream().filter(i -> i.outcome() == Invocation.Outcome.TIMED_OUT).count(),
          invocations.stream().mapToInt(i -> i.reportedFailures().size()).sum(),
          partner.bookings().stream().map(Booking::bookedAt).max(Comparator.naturalOrder())
              .map(last -> real(Duration.between(sendingStarted, last)) / 60).orElse(Double.NaN));
    }

    private double real(Duration local) {
      return scale.toReal(local).toNanos() / 1e9;
    }
  }

  private static void print(List<Result> results, PrintStream out) {
    out.printf(Locale.ROOT, "GB-seconds at %d MB, durations in real time%n", MEMORY_MB);
    out.println("| configuration | orders booked | booked twice | invocations | records per invocation | invocation median | invocation max | GB-s per order | vs batch 1 | partner peak POSTs in flight | timed out | records retried | last order booked after |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    double baseline = results.getFirst().gbSecondsPerOrder();
    for (Result r : results) {
      out.printf(Locale.ROOT, "| %s | %d of %d | %d | %d | %.1f | %.0f s | %.0f s | **%.2f** | %.1fx less | %d | %d | %d | %.0f min |%n",
          r.configuration().name(), r.booked(), r.orders(), r.bookedTwice(), r.invocations(), r.recordsPerInvocation(),
          r.invocationSecondsMedian(), r.invocationSecondsMax(), r.gbSecondsPerOrder(), baseline / r.gbSecondsPerOrder(),
          r.partnerPeak(), r.timedOut(), r.recordsRetried(), r.lastBookedMinutes());
    }
  }

  /**
   * The same question asked of the latency model alone, for every batch size: a full batch of n costs
   * its slowest record, so the saving is n x E[latency] / E[slowest of n]. Asked twice: with the slow
   * calls at random among the others (the model the run above uses), and with them bunched in slowdown
   * windows so tightly that a batch is either all slow or all fast (the share of slow calls the same).
   * The incident report's "partner-slowdown windows" put the truth somewhere between the two.
   */
  private static void printModel(PrintStream out) {
    LatencyModel atRandom = LatencyModel.incident();
    LatencyModel bunched = LatencyModel.incidentSlowOnlyWhenDegraded();
    SplittableRandom random = new SplittableRandom(SEED);
    int samples = 20_000;
    BiFunction<Integer, Function<SplittableRandom, Duration>, Double> meanOfMax = (n, call) -> {
      double sum = 0;
      for (int s = 0; s < samples; s++) {
        double max = 0;
        for (int i = 0; i < n; i++) {
          max = Math.max(max, call.apply(random).toNanos() / 1e9);
        }
        sum += max;
      }
      return sum / samples;
    };
    double single = meanOfMax.apply(1, atRandom::booking);
    out.println("latency model alone (full batches, records at once): GB-s per order relative to batch 1");
    out.println("| batch size | slow calls at random: invocation lasts (mean) | saved | slow calls bunched: invocation lasts (mean) | saved |");
    out.println("|---:|---:|---:|---:|---:|");
    for (int n : List.of(1, 2, 5, 10, 20, 50)) {
      double mixed = meanOfMax.apply(n, atRandom::booking);
      double allSlowOrAllFast = LatencyModel.INCIDENT_SLOW_SHARE * meanOfMax.apply(n, bunched::degradedBooking)
          + (1 - LatencyModel.INCIDENT_SLOW_SHARE) * meanOfMax.apply(n, bunched::booking);
      out.printf(Locale.ROOT, "| %d | %.0f s | %.1fx | %.0f s | %.1fx |%n", n, mixed, n * single / mixed,
          allSlowOrAllFast, n * single / allSlowOrAllFast);
    }
  }

}
