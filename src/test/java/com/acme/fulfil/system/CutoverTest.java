package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.aws.QueueDepth;
import com.acme.fulfil.local.esm.MappingListener;
import com.acme.fulfil.local.scenario.CutoverRehearsal;
import com.acme.fulfil.local.scenario.CutoverRehearsal.Sequence;
import com.acme.fulfil.sim.Booking;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.sim.SimulatedPartner;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.Orders;
import com.acme.fulfil.system.harness.PackagedArtifact;
import com.acme.fulfil.system.harness.QueuePeek;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The first deploy into the account that runs the old setup, rehearsed at the local run's 1/30 scale
 * ({@link CutoverRehearsal}, docs/deploy.md "First deploy: cutover from the old setup"): the old
 * topology (30 s visibility, no DLQ, the incident's function) with orders queued and some in flight at
 * a partner that books them as late as its worst case, then the cutover, then this project's
 * configuration on the same queue. The documented steps book every order exactly once; the same steps
 * without the quiet time book the orders that were in flight twice, which is what the wait is for.
 * Both cutovers run side by side, each with its own queue and partner.
 */
@OnSelectedBackend
class CutoverTest {
  private static final TimeScale SCALE = TimeScale.INCIDENT_REPLAY;
  private static final int ORDERS = 12;
  /** The old mapping's concurrency: the orders in flight at the partner when the cutover begins. */
  private static final int OLD_IN_FLIGHT = 4;
  private static final int MAX_CONCURRENCY = 2;
  /** Past the quiet time and the new function's first tries, with room for a machine twice as slow. */
  private static final Duration SETTLE = Duration.ofSeconds(60);

  private static Rehearsed documented;
  private static Rehearsed withoutTheWait;

  /** One cutover played, with its own partner and order ids. */
  private record Rehearsed(SimulatedPartner partner, CutoverRehearsal rehearsal, List<String> orderIds,
      CutoverRehearsal.Timeline timeline, QueueDepth left, int deadLetters) {

    static Rehearsed play(AwsBackend backend, String name, Sequence sequence) {
      SimulatedPartner partner = SimulatedPartner.start("partner-key-1");
      // The old tries in flight book as late as the partner's worst case: after the new mapping would
      // have looked them up, if it started at once.
      partner.script().nextPosts(OLD_IN_FLIGHT,
          new Reaction.BookAfter(SCALE.toLocal(TimingBudget.defaults().partnerWorstCase())));
      CutoverRehearsal rehearsal = new CutoverRehearsal(name, backend.connection(), partner, SCALE,
          PackagedArtifact.path(), OLD_IN_FLIGHT, MAX_CONCURRENCY, MappingListener.NONE);
      List<String> orderIds = IntStream.range(0, ORDERS).mapToObj(i -> Orders.newId("ORD-" + name)).toList();
      try {
        CutoverRehearsal.Timeline timeline = rehearsal.run(orderIds.stream().map(Orders::body).toList(), sequence);
        var sqs = backend.connection().sqsClient();
        // Settled: every order booked and nothing left on the queue; or, for the cutover that books twice,
        // every late booking of the old tries landed as well.
        Await.until(SETTLE, () -> bookingsPerOrder(partner).size() == ORDERS
            && QueueDepth.of(sqs, rehearsal.queues().source()).total() == 0
            && partner.bookings().size() >= ORDERS + (sequence == Sequence.DOCUMENTED ? 0 : OLD_IN_FLIGHT));
        return new Rehearsed(partner, rehearsal, orderIds, timeline, QueueDepth.of(sqs, rehearsal.queues().source()),
            new QueuePeek(sqs, rehearsal.queues().deadLetter().orElseThrow()).all().size());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  @BeforeAll
  static void rehearseBothCutovers(AwsBackend backend) {
    long started = System.nanoTime();
    // Threads of their own: each rehearsal blocks for most of its run, and the local Lambda's own
    // asynchronous work must not wait behind it in the common pool.
    try (ExecutorService rehearsals = Executors.newFixedThreadPool(2)) {
      CompletableFuture<Rehearsed> first = CompletableFuture.supplyAsync(
          () -> Rehearsed.play(backend, "cutover", Sequence.DOCUMENTED), rehearsals);
      CompletableFuture<Rehearsed> second = CompletableFuture.supplyAsync(
          () -> Rehearsed.play(backend, "cutover-no-wait", Sequence.WITHOUT_THE_QUIET_TIME), rehearsals);
      documented = first.join();
      withoutTheWait = second.join();
    }
    Figures.print("cutover rehearsals (1/30) settled in %.1f s", (System.nanoTime() - started) / 1e9);
  }

  @AfterAll
  static void stop() {
    for (Rehearsed rehearsed : new Rehearsed[] {documented, withoutTheWait}) {
      if (rehearsed != null) {
        rehearsed.rehearsal().close();
        rehearsed.partner().close();
      }
    }
  }

  @Test
  void theDocumentedCutoverBooksEveryOrderExactlyOnce() {
    Map<String, Long> bookings = bookingsPerOrder(documented.partner());

    assertThat(documented.timeline().newMappingStarted()).as("the new mapping started after the quiet time")
        .isAfterOrEqualTo(documented.timeline().lookupsSafeFrom());
    assertThat(bookings.keySet()).as("orders booked").containsExactlyInAnyOrderElementsOf(documented.orderIds());
    assertThat(bookings.values()).as("bookings per order").containsOnly(1L);
    assertThat(documented.left().total()).as("orders left on the source queue").isZero();
    assertThat(documented.deadLetters()).as("orders in the DLQ").isZero();
    Figures.print("cutover with the quiet time (%.1f s local, %d s real): %d orders, %d in flight at the old setup's"
            + " partner, %d bookings, none twice", documented.rehearsal().quietTime().length().toMillis() / 1000.0,
        SCALE.toReal(documented.rehearsal().quietTime().length()).toSeconds(), ORDERS, OLD_IN_FLIGHT,
        documented.partner().bookings().size());
  }

  @Test
  void withoutTheQuietTimeTheOrdersInFlightAreBookedTwice() {
    Map<String, Long> bookings = bookingsPerOrder(withoutTheWait.partner());

    assertThat(withoutTheWait.timeline().newMappingStarted()).as("the new mapping started before the quiet time ended")
        .isBefore(withoutTheWait.timeline().lookupsSafeFrom());
    long bookedTwice = bookings.values().stream().filter(n -> n > 1).count();
    assertThat(bookedTwice).as("orders booked more than once when the new mapping starts at once").isPositive();
    assertThat(bookings.keySet()).as("orders booked").containsExactlyInAnyOrderElementsOf(withoutTheWait.orderIds());
    Figures.print("cutover without the quiet time: %d of the %d orders in flight booked twice, %d bookings for %d orders",
        bookedTwice, OLD_IN_FLIGHT, withoutTheWait.partner().bookings().size(), ORDERS);
  }

  private static Map<String, Long> bookingsPerOrder(SimulatedPartner partner) {
    return partner.bookings().stream().collect(Collectors.groupingBy(Booking::orderId, Collectors.counting()));
  }
}
