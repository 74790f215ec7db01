package com.acme.fulfil.local.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PartnerDayTest {

  @Test
  void blipsAreThreeMinuteLongOutagesFourMinutesApart() {
    assertThat(PartnerDay.fromOption("blips").outages()).containsExactly(
        new PartnerDay.Outage(Duration.ZERO, Duration.ofSeconds(2)),
        new PartnerDay.Outage(Duration.ofSeconds(8), Duration.ofSeconds(2)),
        new PartnerDay.Outage(Duration.ofSeconds(16), Duration.ofSeconds(2)));
    assertThat(PartnerDay.BLIPS.causesRetries()).isTrue();
  }

  @Test
  void anOutageIsOneFiveMinuteWindowAndOnlyOutagesAreReportedForRecovery() {
    assertThat(PartnerDay.OUTAGE.outages()).containsExactly(new PartnerDay.Outage(Duration.ZERO, Duration.ofSeconds(10)));
    assertThat(PartnerDay.DEGRADED.hasOutages()).isFalse();
    assertThat(PartnerDay.HEALTHY.hasOutages()).isFalse();
  }
}
