package com.acme.fulfil.local.scenario;

import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.QueueDepth;
import com.acme.fulfil.local.esm.MappingListener;
import com.acme.fulfil.sim.Booking;
import com.acme.fulfil.sim.LatencyModel;
import com.acme.fulfil.sim.SimulatedPartner;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * {@code ./run-local --cutover}: the first deploy's cutover ({@link CutoverRehearsal}, documented steps) with the
 * incident's partner, and what it came to: each order booked once, twice, or neither. Exit status 1 when an
 * order was booked twice or is neither booked nor queued nor in the DLQ.
 */
public final class CutoverRun {
  /** Long past the quiet time and the backlog's bookings at 1/30, with room for a machine twice as slow. */
  private static final Duration SETTLE = Duration.ofMinutes(3);
  private static final Duration POLL = Duration.ofMillis(250);

  private final AwsConnection aws;
  private final TimeScale scale;
  private final PrintStream out;

  public CutoverRun(AwsConnection aws, TimeScale scale, PrintStream out) {
    this.aws = aws;
    this.scale = scale;
    this.out = out;
  }

  public int run(int orders, int concurrency, long seed, Path artifact) throws InterruptedException {
    List<ScenarioOrder> stream = new OrderStream().generate("ORD-CUTOVER-", orders, 0, 0, seed);
    int inFlight = Math.min(concurrency, orders);
    try (SimulatedPartner partner = SimulatedPartner.builder().latency(LatencyModel.incident())
            .timeScaleDivisor(scale.divisor()).seed(seed).start();
        CutoverRehearsal rehearsal = new CutoverRehearsal("cutover", aws, partner, scale, artifact, inFlight, concurrency,
            MappingListener.NONE)) {
      out.printf(Locale.ROOT, "The first deploy into the old setup's account, rehearsed at %s (docs/deploy.md, \"First"
          + " deploy: cutover from the old setup\"): %d orders to the old setup (30 s visibility, no DLQ, the incident's"
          + " function), the cutover once %d are at the partner, then this project's configuration on the same queue.%n",
          scale, orders, inFlight);
      Instant started = Instant.now();
      CutoverRehearsal.Timeline timeline = rehearsal.run(stream.stream().map(ScenarioOrder::body).toList(),
          CutoverRehearsal.Sequence.DOCUMENTED);
      out.printf(Locale.ROOT, "  old mapping disabled at %s; quiet time %s (%s real); new mapping started at %s%n",
          at(started, timeline.oldMappingDisabled()), seconds(rehearsal.quietTime().length()),
          seconds(scale.toReal(rehearsal.quietTime().length())), at(started, timeline.newMappingStarted()));
      SqsClient sqs = aws.sqsClient();
      long deadline = System.nanoTime() + SETTLE.toNanos();
      while (System.nanoTime() < deadline && !(booked(partner).size() == orders
          && QueueDepth.of(sqs, rehearsal.queues().source()).total() == 0)) {
        Thread.sleep(POLL);
      }
      Map<String, Long> bookings = booked(partner);
      long twice = bookings.values().stream().filter(n -> n > 1).count();
      int queued = QueueDepth.of(sqs, rehearsal.queues().source()).total();
      int deadLetters = QueueDepth.of(sqs, rehearsal.queues().deadLetter().orElseThrow()).total();
      long lost = orders - bookings.size() - queued - deadLetters;
      out.printf(Locale.ROOT, "  settled at %s: %d orders, %d booked, %d booked twice or more, %d still queued, %d in the"
          + " DLQ, %d lost%n", at(started, Instant.now()), orders, bookings.size(), twice, queued, deadLetters, Math.max(0, lost));
      boolean exactlyOnce = twice == 0 && lost <= 0;
      out.println(exactlyOnce ? "Verdict: no order booked twice, none lost."
          : "Verdict: the cutover booked an order twice or lost one.");
      return exactlyOnce ? 0 : 1;
    }
  }

  private static Map<String, Long> booked(SimulatedPartner partner) {
    return partner.bookings().stream().collect(Collectors.groupingBy(Booking::orderId, Collectors.counting()));
  }

  private static String at(Instant start, Instant moment) {
    return "+" + seconds(Duration.between(start, moment));
  }

  private static String seconds(Duration duration) {
    return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
  }
}
