package com.acme.fulfil.local.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.sim.PartnerLatency;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartnerShareTest {
  private static final Instant T0 = Instant.parse("2026-11-25T12:00:00Z");

  private static Instant at(long millis) {
    return T0.plusMillis(millis);
  }

  private static PartnerLatency latency(String method, String orderId, long beganMillis, long tookMillis) {
    return new PartnerLatency(method, orderId, at(beganMillis), Duration.ofMillis(tookMillis));
  }

  @Test
  void aLookupAndABookingAreThePartnersShareAndTheRestIsWhatTheyLeave() {
    PartnerShare share = new PartnerShare(List.of(
        latency("GET", "ORD-1", 300, 50),
        latency("POST", "ORD-2", 310, 5_000),   // another order's booking, at the same time
        latency("POST", "ORD-1", 400, 1_300)));

    assertThat(share.of("ORD-1", at(0), at(1_750))).isEqualTo(Duration.ofMillis(1_350));
    assertThat(DeploymentRun.sendToBooking(List.of(Duration.ofMillis(1_750)), List.of(Duration.ofMillis(1_350))))
        .hasValueSatisfying(s -> assertThat(s.rest().p50()).isEqualTo(Duration.ofMillis(400)));
  }

  @Test
  void redeliveriesAtThePartnerAtOnceCountOnceAndNothingAfterTheFirstBooking() {
    PartnerShare share = new PartnerShare(List.of(
        latency("POST", "ORD-1", 100, 1_000),    // booked at 1,100
        latency("POST", "ORD-1", 600, 1_000),    // a redelivery's booking, half of it alongside the first
        latency("POST", "ORD-1", 2_000, 1_000))); // a third, after the first booking

    assertThat(share.of("ORD-1", at(0), at(1_100))).isEqualTo(Duration.ofMillis(1_000));
  }

  @Test
  void anOrderThePartnerNeverWaitedOnHasNoShare() {
    assertThat(new PartnerShare(List.of(latency("GET", "ORD-2", 0, 50))).of("ORD-1", at(0), at(900))).isZero();
  }
}
