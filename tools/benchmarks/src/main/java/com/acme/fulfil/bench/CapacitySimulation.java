package com.acme.fulfil.bench;

import com.acme.fulfil.contract.alarms.AlarmRules;
import com.acme.fulfil.contract.sqs.SqsLimits;
import com.acme.fulfil.contract.timing.Capacity;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.sim.LatencyModel;
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
 * {@code tools/benchmarks/run capacity}: the tables docs/capacity.md explains. A discrete-event model of the event source
 * mapping in front of the simulated partner's latencies ({@link LatencyModel#incident()}, the same the
 * local run and the system tests use), at 10x and 100x the expected 20,000 orders a week: Poisson
 * arrivals at the busiest hour's rate, at most {@code maxConcurrency} invocations (reached from a quiet
 * queue at standard mode's pace, {@link ScaleUp}), each taking up to {@code batchSize} waiting orders
 * (no batching window) and booking them {@code recordConcurrency} at a time, each order a lookup then a
 * booking. The local mapping runs one JVM per concurrent invocation, so hundreds of them do not fit a
 * laptop; the model runs the same rules in virtual time.
 *
 * <p>For each volume and partner day it sizes the mapping for three quarters of its capacity (the
 * local run's default load): maxConcurrency = busiest hour x mean invocation / (batch x 0.75), with
 * batch 1 and with batch 10, then runs that and reports what orders waited, what the partner saw at
 * once and what an order costs in GB-seconds at the stack's 512 MB. Then what the ramp does to a burst
 * on a quiet queue, and what a partner outage holds in flight.
 */
final class CapacitySimulation {
  static final int EXPECTED_ORDERS_A_WEEK = 20_000;
  /** The volume is known by the week, not its busiest hour: that is taken as twice the average. */
  static final double PEAK_FACTOR = 2;
  /** AWS: an event source mapping's maximum concurrency accepts 2 to 1,000. */
  static final int MOST_MAPPING_CONCURRENCY = 1000;
  private static final double LOAD = 0.75;
  private static final double MEMORY_GB = 0.5;
  /** Lambda on arm64, us-east-1: per GB-second and per request. */
  private static final double PRICE_GB_SECOND = 0.0000133334;
  private static final double PRICE_REQUEST = 0.20 / 1_000_000;
  private static final Duration SIMULATED = Duration.ofHours(3);
  private static final Duration BURST = Duration.ofHours(1);
  /** The burst table's p95 is of the orders sent in the ramp's first minutes. */
  private static final double BURST_START_SECONDS = 600;
  private static final Duration OUTAGE_BLIP = Duration.ofMinutes(30);
  /** Rounds drawn for a round's mean time (the slowest of its records). */
  private static final int ROUND_SAMPLES = 20_000;

  private final long seed;
  private final TimingBudget budget = TimingBudget.defaults();

  CapacitySimulation(long seed) {
    this.seed = seed;
  }

  /**
   * Each table under a heading of its own, so that docs/capacity.md can link the table it explains
   * ({@code reports/capacity-model.md#a-burst-on-a-quiet-queue}) instead of copying its rows.
   */
  void print(PrintStream out) {
    heading(out, "At 10x and 100x, sized for the busiest hour");
    out.println("| volume (busiest hour) | partner | batch size / record concurrency | maxConcurrency | scaling |"
        + " calls at once (most) | send to booking p50 / p95 | most waiting | GB-s an order (512 MB) | cost an order |");
    out.println("|---|---|---|---|---|---|---|---|---|---|");
    for (int times : new int[] {10, 100}) {
      double busiestHour = busiestHour(times);
      for (boolean degraded : new boolean[] {false, true}) {
        for (int batch : new int[] {1, 10}) {
          int concurrency = sized(busiestHour, batch, degraded);
          Result r = run(busiestHour, concurrency, batch, degraded, SIMULATED, ScaleUp.STANDARD);
          out.printf(Locale.ROOT, "| %dx: %,.0f an hour | %s | %d / %d | %,d | %s | %,d | %s / %s | %,d | %.1f | $%.6f |%n",
              times, busiestHour, degraded ? "degraded" : "normal", batch, budget.recordConcurrency(), concurrency,
              scaling(concurrency), r.mostCalls(), minutes(r.p50()), minutes(r.p95()), r.mostWaiting(), r.gbSecondsPerOrder(),
              r.gbSecondsPerOrder() * PRICE_GB_SECOND + PRICE_REQUEST * r.invocations() / r.orders());
        }
      }
    }
    double averageHour = EXPECTED_ORDERS_A_WEEK / (7 * 24.0);
    Capacity defaults = budget.capacity(10);
    double degradedOrderSeconds = new SampledRound(LatencyModel.incident(), true, seed).meanSlowestSeconds(1, ROUND_SAMPLES);
    out.printf(Locale.ROOT, "%nThe stack's defaults (10 at once, batch 1) book %,d an hour on a normal day, %,.0f on a degraded day"
        + " (every booking from the tail, %.0f s an order) and %,d at the worst case; the expected volume averages %,.0f an hour.%n",
        defaults.typicalOrdersPerHour(), defaults.ordersPerHourAt(Duration.ofMillis(Math.round(degradedOrderSeconds * 1000))),
        degradedOrderSeconds, defaults.worstCaseOrdersPerHour(), averageHour);
    printBurst(out, averageHour);
    printOutage(out);
  }

  /**
   * A burst on a quiet queue, normal partner day, for an hour: the mapping starts at five invocations and
   * adds 300 a minute, against a model where every invocation is there from the start.
   */
  private void printBurst(PrintStream out, double averageHour) {
    heading(out, "A burst on a quiet queue");
    out.printf(Locale.ROOT, "| burst on a quiet queue (an hour) | batch size | maxConcurrency | at it after |"
        + " most waiting: ramp / all at once | p95 of the first 10 minutes' orders: ramp / all at once |%n");
    out.println("|---|---|---|---|---|---|");
    burstRow(out, String.format(Locale.ROOT, "10x an average hour: %,.0f an hour, on the defaults", averageHour * 10),
        averageHour * 10, 1, 10);
    for (int times : new int[] {10, 100}) {
      for (int batch : new int[] {1, 10}) {
        double busiestHour = busiestHour(times);
        burstRow(out, String.format(Locale.ROOT, "%dx busiest hour: %,.0f an hour", times, busiestHour), busiestHour, batch,
            sized(busiestHour, batch, false));
      }
    }
  }

  private void burstRow(PrintStream out, String volume, double ordersPerHour, int batch, int concurrency) {
    Result ramp = run(ordersPerHour, concurrency, batch, false, BURST, ScaleUp.STANDARD);
    Result atOnce = run(ordersPerHour, concurrency, batch, false, BURST, ScaleUp.AT_ONCE);
    int minutes = ScaleUp.STANDARD.minutesToReach(concurrency);
    out.printf(Locale.ROOT, "| %s | %d | %,d | %s | %,d / %,d | %s / %s |%n", volume, batch, concurrency,
        minutes == 0 ? "at once" : minutes + " min", ramp.mostWaiting(), atOnce.mostWaiting(),
        minutes(ramp.firstMinutesP95()), minutes(atOnce.firstMinutesP95()));
  }

  /**
   * A partner outage, every try failing fast: each order retries for its whole retry life before the DLQ,
   * in flight nearly all of it, and every try is a lookup at the partner and an invocation.
   */
  private void printOutage(PrintStream out) {
    Duration life = budget.outageRetryLife();
    heading(out, "A partner outage: what stays in flight");
    out.printf(Locale.ROOT, "Partner outage: an order retries %,d s on average before the DLQ (at least the %,d s horizon, at most %,d s),"
            + " in flight nearly all of it, over %d tries, each a lookup at the partner (up to %d s when it hangs).%n%n",
        life.toSeconds(), budget.retryHorizon().toSeconds(), budget.longestRetryLife().toSeconds(), budget.maxReceiveCount(),
        budget.partnerLookupTimeout().toSeconds());
    out.println("| volume (busiest hour) | in flight once the outage has lasted " + String.format(Locale.ROOT, "%,d s", life.toSeconds())
        + " | against the alarm / SQS's cap | tries an hour | calls at once if every lookup hangs |"
        + " after a " + OUTAGE_BLIP.toMinutes() + "-minute outage at 3/4 of capacity: orders to book again / hours to catch up |");
    out.println("|---|---|---|---|---|---|");
    for (int times : new int[] {10, 100}) {
      double busiestHour = busiestHour(times);
      long inFlight = budget.inFlightThroughOutage(busiestHour);
      double tries = busiestHour * budget.maxReceiveCount();
      double blipOrders = busiestHour * OUTAGE_BLIP.toSeconds() / 3600.0;
      // At three quarters of capacity a quarter is spare: the outage's orders take three times as long again.
      double catchUpHours = blipOrders / (busiestHour / LOAD - busiestHour);
      out.printf(Locale.ROOT, "| %dx: %,.0f an hour | %,d | %.0f%% / %.0f%% | %,.0f | %,.0f | %,.0f / %.1f |%n", times, busiestHour,
          inFlight, 100.0 * inFlight / AlarmRules.IN_FLIGHT_WARNING, 100.0 * inFlight / SqsLimits.IN_FLIGHT_CAP,
          tries, tries * budget.partnerLookupTimeout().toSeconds() / 3600, blipOrders, catchUpHours);
    }
  }

  private static void heading(PrintStream out, String title) {
    out.printf(Locale.ROOT, "%n## %s%n%n", title);
  }

  private static double busiestHour(int times) {
    return EXPECTED_ORDERS_A_WEEK * times / (7 * 24.0) * PEAK_FACTOR;
  }

  private int sized(double busiestHour, int batch, boolean degraded) {
    double fullBatchSeconds = new SampledRound(LatencyModel.incident(), degraded, seed).meanSlowestSeconds(batch, ROUND_SAMPLES);
    return (int) Math.ceil(busiestHour * fullBatchSeconds / 3600 / (batch * LOAD));
  }

  /**
   * Standard scaling with the mapping's maximum concurrency, always: provisioned mode cannot be combined
   * with a maximum concurrency, so it would drop the cap that keeps the partner at a known number of
   * calls. A need above the cap's 1,000 is met with bigger batches or a second mapping, each capped.
   */
  static String scaling(int concurrency) {
    if (concurrency > MOST_MAPPING_CONCURRENCY) {
      return "over maxConcurrency's 1,000: bigger batches, or two capped mappings";
    }
    return "standard, capped; at it after " + ScaleUp.STANDARD.minutesToReach(concurrency) + " min";
  }

  /** One model run at {@code ordersPerHour} for {@code length} of virtual time, from a quiet queue. */
  Result run(double ordersPerHour, int maxConcurrency, int batchSize, boolean degraded, Duration length, ScaleUp scaleUp) {
    SplittableRandom random = new SplittableRandom(seed);
    LatencyModel partner = LatencyModel.incident();
    double end = length.toSeconds();
    double meanGap = 3600 / ordersPerHour;
    Deque<Double> waiting = new ArrayDeque<>();
    PriorityQueue<Double> finishing = new PriorityQueue<>();
    PriorityQueue<Double> callsEnding = new PriorityQueue<>();
    List<Double> sendToBooking = new ArrayList<>();
    List<Double> firstMinutes = new ArrayList<>();
    double nextArrival = -Math.log(1 - random.nextDouble()) * meanGap;
    double busySince = nextArrival;
    double now = 0;
    double invocationSeconds = 0;
    int invocations = 0;
    int running = 0;
    int mostWaiting = 0;
    int mostCalls = 0;
    while (nextArrival < end || !finishing.isEmpty() || !waiting.isEmpty()) {
      double arrival = nextArrival < end ? nextArrival : Double.MAX_VALUE;
      double finish = finishing.isEmpty() ? Double.MAX_VALUE : finishing.peek();
      double step = waiting.isEmpty() ? Double.MAX_VALUE : busySince + scaleUp.nextStep(now - busySince, maxConcurrency);
      if (arrival <= finish && arrival <= step) {
        now = arrival;
        waiting.addLast(now);
        nextArrival = now - Math.log(1 - random.nextDouble()) * meanGap;
      } else if (finish <= step) {
        now = finishing.poll();
        running--;
      } else {
        now = step;
      }
      while (!callsEnding.isEmpty() && callsEnding.peek() <= now) {
        callsEnding.poll();
      }
      mostWaiting = Math.max(mostWaiting, waiting.size());
      while (running < scaleUp.allowed(now - busySince, maxConcurrency) && !waiting.isEmpty()) {
        int take = Math.min(batchSize, waiting.size());
        double[] workerFree = new double[Math.min(batchSize, budget.recordConcurrency())];
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
          if (sent - busySince < BURST_START_SECONDS) {
            firstMinutes.add(booked - sent);
          }
          last = Math.max(last, booked);
        }
        mostCalls = Math.max(mostCalls, callsEnding.size());
        finishing.add(last);
        invocationSeconds += last - now;
        invocations++;
        running++;
      }
    }
    double[] sorted = sorted(sendToBooking);
    return new Result(sorted.length, invocations, percentile(sorted, 50), percentile(sorted, 95),
        percentile(sorted(firstMinutes), 95), mostWaiting, mostCalls, invocationSeconds * MEMORY_GB / sorted.length);
  }

  record Result(int orders, int invocations, double p50, double p95, double firstMinutesP95, int mostWaiting,
      int mostCalls, double gbSecondsPerOrder) {}

  private static double[] sorted(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
  }

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
