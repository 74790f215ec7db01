package com.acme.fulfil.local.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OutageRecoveryTest {
  private static final Instant T0 = Instant.parse("2026-11-25T12:00:00Z");
  private static final PartnerOutages.Downtime DOWN_10_TO_20 = new PartnerOutages.Downtime(at(10), at(20));

  private static Instant at(double seconds) {
    return T0.plusMillis((long) (seconds * 1000));
  }

  private static OutageRecovery.OrderCourse order(double sent, Double booked, int receives) {
    return new OutageRecovery.OrderCourse(at(sent), Optional.ofNullable(booked).map(OutageRecoveryTest::at), receives);
  }

  @Test
  void theOrdersThatMetTheOutageAreThoseInTheQueueWhileThePartnerWasDown() {
    Optional<DeploymentReport.Recovery> recovery = OutageRecovery.of(List.of(DOWN_10_TO_20), List.of(
        order(1, 3.0, 1),    // booked before the outage
        order(9, 11.0, 1),   // its booking under way when the partner went down
        order(8, 22.0, 2),   // its lookup refused
        order(15, 24.0, 3),  // sent during it
        order(21, 23.0, 1)));// sent after it

    assertThat(recovery).hasValueSatisfying(r -> {
      assertThat(r.orders()).isEqualTo(2);
      assertThat(r.unbooked()).isZero();
      assertThat(r.backlogBookedAfter()).contains(Duration.ofSeconds(4));
      assertThat(r.sendToBooking()).hasValueSatisfying(s -> {
        assertThat(s.p50()).isEqualTo(Duration.ofSeconds(9));
        assertThat(s.p95()).isEqualTo(Duration.ofSeconds(14));
      });
      assertThat(r.receives()).isEqualTo(new DeploymentReport.Receives(2.5, 3));
    });
  }

  @Test
  void ofSeveralOutagesTheSlowestToClearCountsAndAnUnbookedOrderLeavesItOpen() {
    PartnerOutages.Downtime later = new PartnerOutages.Downtime(at(30), at(32));
    List<OutageRecovery.OrderCourse> orders = List.of(order(12, 21.0, 2), order(31, 40.0, 2));

    assertThat(OutageRecovery.of(List.of(DOWN_10_TO_20, later), orders).orElseThrow().backlogBookedAfter())
        .contains(Duration.ofSeconds(8));
    assertThat(OutageRecovery.of(List.of(DOWN_10_TO_20), List.of(order(12, null, 5))).orElseThrow())
        .satisfies(r -> {
          assertThat(r.unbooked()).isEqualTo(1);
          assertThat(r.backlogBookedAfter()).isEmpty();
        });
  }

  @Test
  void aDayWithoutOutagesHasNothingToReport() {
    assertThat(OutageRecovery.of(List.of(), List.of(order(1, 2.0, 1)))).isEmpty();
  }
}
