package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.LocalBudget;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.scenario.OrderStream;
import com.acme.fulfil.local.scenario.ScenarioOrder;
import com.acme.fulfil.sim.Booking;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.Latencies;
import com.acme.fulfil.system.harness.Nightly;
import com.acme.fulfil.system.harness.PackagedArtifact;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The incident's partner, slow anywhere from 30 to 300 s, at the local run's 1/30 time scale. The same
 * order stream goes, side by side, to this project's configuration (every number from the
 * {@code TimingBudget} the CDK stack deploys) and to the incident's (30 s visibility, the incident's
 * function): the first never books a courier twice, the second does, so the harness reproduces the
 * bug the fix is for.
 *
 * <p>Not in README's build ({@link Nightly}): on the embedded backend it proves again what
 * {@link IncidentReplayTest} proves there, the same two configurations against the incident's partner, and
 * its ten environments made it one of the build's heaviest classes. CI runs it on LocalStack on every push
 * and on the embedded backend each night (docs/testing.md).
 */
@OnSelectedBackend
@Nightly
class SlowPartnerTest {
  private static final TimeScale SCALE = TimeScale.INCIDENT_REPLAY;
  private static final int ORDERS = 40;
  private static final int MAX_CONCURRENCY = 10;
  private static final long SEED = 30;
  private static final Duration SEND_SPREAD = Duration.ofSeconds(4);

  @AutoClose
  private static FulfilOrderUnderTest fixed;
  @AutoClose
  private static FulfilOrderUnderTest incident;
  private static List<ScenarioOrder> orders;
  private static List<String> fixedMessageIds;
  private static Duration fixedSettledAfter;

  @BeforeAll
  static void sendTheSameStreamToBoth(AwsBackend backend) throws InterruptedException {
    fixed = FulfilOrderUnderTest.on(backend, "fixed")
        .deployment(Deployment.fulfilOrder(TimingBudget.defaults(), SCALE, MAX_CONCURRENCY, PackagedArtifact.path()))
        .partner(SlowPartnerTest::slowPartner)
        .start();
    incident = FulfilOrderUnderTest.on(backend, "incident")
        .deployment(Deployment.incident(SCALE, MAX_CONCURRENCY))
        .partner(SlowPartnerTest::slowPartner)
        .start();
    orders = new OrderStream().generate("ORD-SLOW-", ORDERS, 0, 0, SEED);
    fixedMessageIds = new ArrayList<>();
    long started = System.nanoTime();
    for (ScenarioOrder order : orders) {
      fixedMessageIds.add(fixed.send(order.body()));
      incident.send(order.body());
      Thread.sleep(SEND_SPREAD.dividedBy(ORDERS));
    }
    Duration visibility = fixed.queues().settings().visibilityTimeout();
    fixed.awaitDeletedWithinTheirLives(fixedMessageIds);
    fixedSettledAfter = Duration.ofNanos(System.nanoTime() - started);
  }

  private static void slowPartner(com.acme.fulfil.sim.SimulatedPartner.Builder partner) {
    partner.latency(Latencies.spreadOverTheIncidentsRange()).timeScaleDivisor(SCALE.divisor()).seed(SEED);
  }

  @Test
  void slowPartnerNeverBooksTwiceWithTheProjectsTiming() {
    Map<String, Long> bookings = bookingsPerOrder(fixed);

    assertThat(bookings).as("orders booked").hasSize(ORDERS);
    assertThat(bookings.values()).as("bookings per order").containsOnly(1L);
    assertThat(fixed.invocations().deletedAll(fixedMessageIds)).isTrue();
    assertThat(fixed.deadLetters().messages()).isEmpty();
    int adopted = (int) fixedMessageIds.stream().filter(id -> fixed.invocations().receives(id) > 1).count();
    Figures.print("slow partner, this project's timing (1/30: visibility %d s, function %d s): %d orders, %d bookings,"
            + " 0 booked twice, %d retried past the deadline and adopted, settled in %.1f s (%.0f min real)",
        fixed.queues().settings().visibilityTimeout().toSeconds(), LocalBudget.of(TimingBudget.defaults(), SCALE)
            .functionTimeout().toSeconds(), ORDERS, fixed.partner().bookings().size(), adopted,
        fixedSettledAfter.toMillis() / 1000.0, SCALE.toReal(fixedSettledAfter).toSeconds() / 60.0);
  }

  @Test
  void slowPartnerBooksTwiceWithTheIncidentsTiming() {
    // Long after the fix settled, the incident's copies are still being redelivered and booked again.
    Await.until(Duration.ofSeconds(10), () -> bookingsPerOrder(incident).values().stream().anyMatch(n -> n > 1));
    Map<String, Long> bookings = bookingsPerOrder(incident);

    long bookedTwiceOrMore = bookings.values().stream().filter(n -> n > 1).count();
    assertThat(bookedTwiceOrMore).as("orders booked twice or more under the incident's configuration").isPositive();
    Figures.print("slow partner, the incident's timing (visibility 1 s = 30 s real, no DLQ): %d of %d orders booked"
        + " twice or more, %d couriers booked in all", bookedTwiceOrMore, ORDERS, incident.partner().bookings().size());
  }

  private static Map<String, Long> bookingsPerOrder(FulfilOrderUnderTest deployment) {
    return deployment.partner().bookings().stream()
        .collect(Collectors.groupingBy(Booking::orderId, Collectors.counting()));
  }
}
