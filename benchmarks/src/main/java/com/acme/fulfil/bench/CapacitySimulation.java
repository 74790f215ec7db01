package com.acme.fulfil.bench;

import com.acme.fulfil.sim.LatencyModel;
import com.acme.fulfil.timing.TimingBudget;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * {@code benchmarks/run capacity}: docs/capacity.md's table. A discrete-event model of the event source
 * mapping in front of the simulated partner's latencies ({@link LatencyModel#incident()}, the same the
 * local run and the system tests use), at 10x and 100x the seeds' 20,000 orders a week: Poisson
 * arrivals at the busiest hour's rate, at most {@code maxConcurrency} invocations, each taking up to
 * {@code batchSize} waiting orders (no batching window) and booking them {@code recordConcurrency} at a
 * time, each order a lookup then a booking. The local mapping runs one JVM per concurrent invocation,
 * so hundreds of them do not fit a laptop; the model runs the same rules in virtual time.
 *
 * <p>For each volume and partner day it sizes the mapping for three quarters of its capacity (the
 * local run's default load): maxConcurrency = busiest hour x mean invocation / (batch x 0.75), with
 * batch 1 and with batch 10, then runs that and reports what orders waited, what the partner saw at
 * once and what an order costs in GB-seconds at the stack's 512 MB.
 */
final class CapacitySimulation {
  static final int SEEDS_ORDERS_A_WEEK = 20_000;
  /** The seeds give a week's volume, not its busiest hour: the busiest hour is taken as twice the average. */
  static final double PEAK_FACTOR = 2;
  private static final double LOAD = 0.75;
  private static final double MEMORY_GB = 0.5;
  /** Lambda on arm64, us-east-1: per GB-second and per request. */
  private static final double PRICE_GB_SECOND = 0.0000133334;
  private static final double PRICE_REQUEST = 0.20 / 1_000_000;
  private static final Duration SIMULATED = Duration.ofHours(3);

  private final long seed;

  CapacitySimulation(long seed) {
    this.seed = seed;
  }

  void print(PrintStream out) {
    out.println("| volume (busiest hour) | partner | batch size / record concurrency | maxConcurrency | pollers |"
        + " calls at once (most) | send to booking p50 / p95 | most waiting | GB-s an order (512 MB) | cost an order |");
    out.println("|---|---|---|---|---|---|---|---|---|---|");
    for (int times : new int[] {10, 100}) {
      double busiestHour = SEEDS_ORDERS_A_WEEK * times / (7 * 24.0) * PEAK_FACTOR;
      for (boolean degraded : new boolean[] {false, true}) {
        for (int batch : new int[] {1, 10}) {
          int concurrency = (int) Math.ceil(busiestHour * fullBatchSeconds(batch, degraded) / 3600 / (batch * LOAD));
          Result r = run(busiestHour, concurrency, batch, degraded, SIMULATED);
          out.printf(Locale.ROOT, "| %dx: %,.0f an hour | %s | %d / %d | %,d | %s | %,d | %s / %s | %,d | %.1f | $%.6f |%n",
              times, busiestHour, degraded ? "degraded" : "normal", batch, TimingBudget.defaults().recordConcurrency(), concurrency, pollers(concurrency),
              r.mostCalls(), minutes(r.p50()), minutes(r.p95()), r.mostWaiting(), r.gbSecondsPerOrder(),
              r.gbSecondsPerOrder() * PRICE_GB_SECOND + PRICE_REQUEST * r.invocations() / r.orders());
        }
      }
    }
    TimingBudget budget = TimingBudget.defaults();
    out.printf(Locale.ROOT, "%nThe stack's defaults (10 at once, batch 1) book %,d an hour on a normal day and %,d at the worst case;"
        + " the seeds' volume averages %,.0f an hour.%n", budget.capacity(10).typicalOrdersPerHour(),
        budget.capacity(10).worstCaseOrdersPerHour(), SEEDS_ORDERS_A_WEEK / (7 * 24.0));
  }

  /**
   * How long a full batch's invocation lasts on average: its records side by side (recordConcurrency
   * 10), so as long as the slowest of them. A busy mapping's batches are full.
   */
  private double fullBatchSeconds(int batch, boolean degraded) {
    SplittableRandom random = new SplittableRandom(seed);
    LatencyModel partner = LatencyModel.incident();
    int samples = 20_000;
    double total = 0;
    for (int i = 0; i < samples; i++) {
      double slowest = 0;
      for (int r = 0; r < batch; r++) {
        slowest = Math.max(slowest, seconds(partner.lookup(random))
            + seconds(degraded ? partner.degradedBooking(random) : partner.booking(random)));
      }
      total += slowest;
    }
    return total / samples;
  }

  /**
   * On-demand, an SQS mapping adds up to 300 concurrent invocations a minute, to at most 1,250; the
   * mapping's maximum concurrency takes 2 to 1,000. Provisioned mode keeps pollers ready (each drives
   * up to 10 invocations at once, up to 20,000 in all), so a surge does not wait for scaling.
   */
  private static String pollers(int concurrency) {
    if (concurrency > 1000) {
      return "over the mapping's 1,000: more batch, or two mappings";
    }
    return concurrency > 300 ? "provisioned (" + (concurrency + 9) / 10 + " minimum)" : "on demand";
  }

  /** One model run at {@code ordersPerHour} for {@code length} of virtual time. */
  Result run(double ordersPerHour, int maxConcurrency, int batchSize, boolean degraded, Duration length) {
    SplittableRandom random = new SplittableRandom(seed);
    LatencyModel partner = LatencyModel.incident();
    double end = length.toSeconds();
    double meanGap = 3600 / ordersPerHour;
    Deque<Double> waiting = new ArrayDeque<>();
    PriorityQueue<double[]> finishing = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
    PriorityQueue<Double> callsEnding = new PriorityQueue<>();
    List<Double> sendToBooking = new ArrayList<>();
    double nextArrival = -Math.log(1 - random.nextDouble()) * meanGap;
    double invocationSeconds = 0;
    int invocations = 0;
    int running = 0;
    int mostWaiting = 0;
    int mostCalls = 0;
    while (true) {
      double nextFinish = finishing.isEmpty() ? Double.MAX_VALUE : finishing.peek()[0];
      if (nextArrival >= end && finishing.isEmpty() && waiting.isEmpty()) {
        break;
      }
      double now;
      if (nextArrival < end && nextArrival <= nextFinish) {
        now = nextArrival;
        waiting.addLast(now);
        nextArrival = now - Math.log(1 - random.nextDouble()) * meanGap;
      } else {
        now = finishing.poll()[0];
        running--;
      }
      while (!callsEnding.isEmpty() && callsEnding.peek() <= now) {
        callsEnding.poll();
      }
      mostWaiting = Math.max(mostWaiting, waiting.size());
      while (running < maxConcurrency && !waiting.isEmpty()) {
        int take = Math.min(batchSize, waiting.size());
        double[] workerFree = new double[Math.min(batchSize, TimingBudget.defaults().recordConcurrency())];
        Arrays.fill(workerFree, now);
        double last = now;
        for (int i = 0; i < take; i++) {
          double sent = waiting.pollFirst();
          int worker = 0;
          for (int w = 1; w < workerFree.length; w++) {
            worker = workerFree[w] < workerFree[worker] ? w : worker;
          }
          double lookup = seconds(partner.lookup(random));
          double booking = seconds(degraded ? partner.degradedBooking(random) : partner.booking(random));
          double booked = workerFree[worker] + lookup + booking;
          callsEnding.add(booked);
          workerFree[worker] = booked;
          sendToBooking.add(booked - sent);
          last = Math.max(last, booked);
        }
        mostCalls = Math.max(mostCalls, callsEnding.size());
        finishing.add(new double[] {last});
        invocationSeconds += last - now;
        invocations++;
        running++;
      }
    }
    double[] sorted = sendToBooking.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return new Result(sorted.length, invocations, invocationSeconds / invocations, percentile(sorted, 50),
        percentile(sorted, 95), mostWaiting, mostCalls, invocationSeconds * MEMORY_GB / sorted.length);
  }

  record Result(int orders, int invocations, double meanInvocationSeconds, double p50, double p95, int mostWaiting,
      int mostCalls, double gbSecondsPerOrder) {}

  private static double percentile(double[] sorted, int percent) {
    return sorted[Math.max(0, (int) Math.ceil(percent / 100.0 * sorted.length) - 1)];
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  private static String minutes(double seconds) {
    return seconds < 120 ? String.format(Locale.ROOT, "%.0f s", seconds) : String.format(Locale.ROOT, "%.1f min", seconds / 60);
  }
}
