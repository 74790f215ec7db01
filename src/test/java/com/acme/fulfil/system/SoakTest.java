package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.esm.Invocation;
import com.acme.fulfil.local.scenario.OrderStream;
import com.acme.fulfil.local.scenario.ScenarioOrder;
import com.acme.fulfil.sim.Booking;
import com.acme.fulfil.sim.SimulatedPartner;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.InvocationLog;
import com.acme.fulfil.system.harness.Latencies;
import com.acme.fulfil.system.harness.Nightly;
import com.acme.fulfil.system.harness.TestBudgets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Orders through the local stack with every failure of the seeds mixed in, from one seed: partner
 * calls beyond the function's deadline, 5xx bursts, SQS delivering a message again while it is being
 * worked on, the producer sending an order twice, and 2 % of messages that can never be booked.
 * Afterwards every order is booked exactly once, or dead-lettered for a permanent reason, or still
 * queued; none is lost.
 *
 * <p>{@link Nightly}: README's build leaves it out, and CI runs it on LocalStack on every push and
 * on the embedded backend each night (docs/testing.md says what README's build gives up). How many orders
 * is the system property {@code fulfil.soak.orders}: a few hundred unless told, enough for each failure to
 * happen several times; CI's nightly run sends thousands. The orders go out at the same rate, with a 503
 * burst for every 250, whatever their number.
 *
 * <p>How many invocations run at once is {@code fulfil.soak.max-concurrency}: 3 unless told, and
 * production's 10 at night. Lambda gives each environment a CPU of its own; here each is a JVM sharing
 * the build machine's cores with the other test JVMs, and the partner's time runs 280 times faster. At
 * 10, and now and then at 5 on a slow machine, busy environments starved each other until Lambda's
 * timeout killed them, and each kill started a new environment, which starved the others more: the soak
 * measured the machine more than the function. Three still work side by side on copies of one order.
 * Kills at the timeout are proven on purpose elsewhere ({@code DuplicateDeliveryTest}, the order-life
 * model); the nightly run keeps the soak's own, which land anywhere in a try.
 */
@OnSelectedBackend
@Nightly
class SoakTest {
  private static final int ORDERS = Integer.getInteger("fulfil.soak.orders", 300);
  private static final double POISON_SHARE = 0.015;
  private static final double PARTNER_REJECTS_SHARE = 0.005;
  private static final double PRODUCER_DUPLICATE_SHARE = 0.02;
  private static final double REDELIVERY_SHARE = 0.03;
  private static final double OVERRUN_SHARE = 0.02;
  private static final long SEED = 2026;
  /**
   * The budget's 1 s partner worst case holds the incident's 280 s tail, so partner time runs 280 times
   * faster. Overruns take 1.5-2 s: past the 1.5 s the function waits for a booking, within its 2 s
   * timeout, and within the partner's contract, which therefore says 2 s (an overrun books when it
   * answers; a partner booking later than its contract allows could be booked twice by a redelivery
   * that comes after the hold: CI saw ORD-SOAK-001779 booked twice when the budget said 1 s).
   */
  private static final int PARTNER_TIME_SCALE = 280;
  private static final Duration OVERRUN_FROM = Duration.ofSeconds(420);
  private static final Duration OVERRUN_TO = Duration.ofSeconds(560);
  private static final int BATCH_SIZE = 5;
  private static final int MAX_CONCURRENCY = Integer.getInteger("fulfil.soak.max-concurrency", 3);
  private static final int ORDERS_SENT_A_SECOND = 50;
  private static final Duration SEND_OVER = Duration.ofMillis(1_000L * ORDERS / ORDERS_SENT_A_SECOND);
  private static final int OUTAGE_BURSTS = Math.max(1, ORDERS / 250);
  private static final Duration OUTAGE_BURST = Duration.ofSeconds(1);
  /** Four minutes for each thousand orders begun: several times what they take (the figures line says how long). */
  private static final Duration DEADLINE = Duration.ofMinutes(4L * Math.max(1, (ORDERS + 999) / 1_000));

  @Test
  void ordersWithEveryFailureMixedInAreEachBookedOnceDeadLetteredOrQueuedAndNoneLost(AwsBackend backend)
      throws InterruptedException {
    SplittableRandom redeliveries = new SplittableRandom(SEED);
    try (FulfilOrderUnderTest fulfil = FulfilOrderUnderTest.on(backend, "soak")
        .budget(TestBudgets.quick(BATCH_SIZE, OVERRUN_TO.dividedBy(PARTNER_TIME_SCALE)))
        .maxConcurrency(MAX_CONCURRENCY)
        .partner(partner -> partner
            .latency(Latencies.incidentWithOverruns(OVERRUN_SHARE, OVERRUN_FROM, OVERRUN_TO))
            .timeScaleDivisor(PARTNER_TIME_SCALE)
            .seed(SEED))
        .redeliverNow(message -> firstReceive(message) && nextDouble(redeliveries) < REDELIVERY_SHARE)
        .start()) {
      SimulatedPartner partner = fulfil.partner();
      List<ScenarioOrder> orders = new OrderStream().generate("ORD-SOAK-", ORDERS, POISON_SHARE, PARTNER_REJECTS_SHARE, SEED);
      List<ScenarioOrder> sends = withProducerDuplicates(orders, new Random(SEED));
      long started = System.nanoTime();

      Map<String, ScenarioOrder> orderByMessage = send(fulfil, sends, started);
      Set<String> neverBookable = orderByMessage.entrySet().stream().filter(e -> e.getValue().kind().neverBookable())
          .map(Map.Entry::getKey).collect(Collectors.toSet());
      Await.until(DEADLINE, () -> fulfil.queued().total() == 0
          && fulfil.deadLetters().messages().keySet().containsAll(neverBookable));
      Duration ran = Duration.ofNanos(System.nanoTime() - started);
      fulfil.close();

      Map<String, Message> dlq = fulfil.deadLetters().messages();
      Tally tally = Tally.of(orders, orderByMessage, partner.bookings(), dlq, fulfil.invocations());
      InvocationLog invocations = fulfil.invocations();
      long retried = orderByMessage.keySet().stream().filter(id -> invocations.receives(id) > 1).count();
      Figures.print("soak: %d orders (%d messages: %d producer duplicates), %d SQS redeliveries injected, %d partner 503"
              + " bursts, %d invocations (%d timed out), %d messages received more than once, %d partner lookups",
          ORDERS, orderByMessage.size(), orderByMessage.size() - ORDERS, fulfil.injectedRedeliveries(), OUTAGE_BURSTS,
          invocations.runs().size(), invocations.count(Invocation.Outcome.TIMED_OUT), retried, partner.lookupCount());
      Figures.print("soak: %d booked once, %d booked twice or more, %d bookings in all, %d dead-lettered (%d of them"
              + " bookable), %d still queued, %d lost; wall time %.1f s, %.0f orders/s",
          tally.bookedOnce(), tally.bookedTwice().size(), partner.bookings().size(), tally.deadLettered(),
          tally.bookableInDlq().size(), tally.queued(), tally.lost().size(), ran.toMillis() / 1000.0,
          ORDERS / (ran.toMillis() / 1000.0));
      assertThat(tally.bookedTwice()).as("orders booked more than once").isEmpty();
      assertThat(tally.lost()).as("orders neither booked, nor dead-lettered, nor queued").isEmpty();
      assertThat(tally.bookableInDlq()).as("bookable orders in the DLQ").isEmpty();
      assertThat(dlq.keySet()).as("the DLQ holds only messages that can never be booked").isSubsetOf(neverBookable);
      assertThat(tally.bookedOnce() + tally.deadLettered() + tally.queued()).isEqualTo(ORDERS);
      assertThat(fulfil.injectedRedeliveries()).as("SQS duplicates injected").isPositive();
    }
  }

  /** Where each order ended: booked once, dead-lettered, still queued, or (must not happen) twice or lost. */
  private record Tally(int bookedOnce, int deadLettered, int queued, List<String> bookedTwice, List<String> lost,
      List<String> bookableInDlq) {

    static Tally of(List<ScenarioOrder> orders, Map<String, ScenarioOrder> orderByMessage, List<Booking> bookings,
        Map<String, Message> dlq, InvocationLog invocations) {
      Map<String, Long> bookingsPerOrder = bookings.stream()
          .collect(Collectors.groupingBy(Booking::orderId, Collectors.counting()));
      Map<String, List<String>> messagesByOrder = orderByMessage.entrySet().stream().collect(
          Collectors.groupingBy(e -> e.getValue().orderId(), Collectors.mapping(Map.Entry::getKey, Collectors.toList())));
      int bookedOnce = 0;
      int deadLettered = 0;
      int queued = 0;
      List<String> bookedTwice = new ArrayList<>();
      List<String> lost = new ArrayList<>();
      List<String> bookableInDlq = new ArrayList<>();
      for (ScenarioOrder order : orders) {
        List<String> messages = messagesByOrder.get(order.orderId());
        long booked = bookingsPerOrder.getOrDefault(order.orderId(), 0L);
        boolean inDlq = messages.stream().anyMatch(dlq::containsKey);
        boolean stillQueued = messages.stream().anyMatch(id -> !invocations.deleted(id) && !dlq.containsKey(id));
        if (booked > 1) {
          bookedTwice.add(order.orderId());
        } else if (booked == 1) {
          bookedOnce++;
        } else if (inDlq) {
          deadLettered++;
        } else if (stillQueued) {
          queued++;
        } else {
          lost.add(order.orderId());
        }
        if (inDlq && !order.kind().neverBookable()) {
          bookableInDlq.add(order.orderId());
        }
      }
      return new Tally(bookedOnce, deadLettered, queued, bookedTwice, lost, bookableInDlq);
    }
  }

  /** The stream as the checkout service sends it: a share of the good orders goes out twice, a little later. */
  private static List<ScenarioOrder> withProducerDuplicates(List<ScenarioOrder> orders, Random random) {
    List<ScenarioOrder> sends = new ArrayList<>(orders);
    for (ScenarioOrder order : orders) {
      if (!order.kind().neverBookable() && random.nextDouble() < PRODUCER_DUPLICATE_SHARE) {
        sends.add(Math.min(sends.size(), sends.indexOf(order) + 1 + random.nextInt(200)), order);
      }
    }
    return sends;
  }

  /** Sends evenly over {@link #SEND_OVER}, with the partner's 503 bursts spread over the same time. */
  private static Map<String, ScenarioOrder> send(FulfilOrderUnderTest fulfil, List<ScenarioOrder> sends, long started)
      throws InterruptedException {
    Map<String, ScenarioOrder> orderByMessage = new HashMap<>();
    int chunk = 10;
    int chunks = (sends.size() + chunk - 1) / chunk;
    int burstEvery = chunks / (OUTAGE_BURSTS + 1);
    for (int c = 0; c < chunks; c++) {
      if (c > 0 && c % burstEvery == 0 && c / burstEvery <= OUTAGE_BURSTS) {
        fulfil.partner().outage(OUTAGE_BURST);
      }
      List<ScenarioOrder> batch = sends.subList(c * chunk, Math.min(sends.size(), (c + 1) * chunk));
      List<String> ids = fulfil.sendAll(batch.stream().map(ScenarioOrder::body).toList());
      for (int i = 0; i < ids.size(); i++) {
        orderByMessage.put(ids.get(i), batch.get(i));
      }
      long due = started + SEND_OVER.toNanos() * (c + 1) / chunks;
      Thread.sleep(Duration.ofNanos(Math.max(0, due - System.nanoTime())));
    }
    return orderByMessage;
  }

  private static boolean firstReceive(Message message) {
    return "1".equals(message.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT));
  }

  private static synchronized double nextDouble(SplittableRandom random) {
    return random.nextDouble();
  }
}
