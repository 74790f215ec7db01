package com.acme.fulfil.local.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.acme.fulfil.local.TimeScale;
import com.fasterxml.jackson.databind.JsonNode;
import com.acme.fulfil.local.alarm.AlarmOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReportRowsTest {
  private static final TimeScale SCALE = TimeScale.INCIDENT_REPLAY;
  private static final ScenarioSettings SETTINGS = new ScenarioSettings(200, 0.02, 0.01, PartnerDay.OUTAGE, 42,
      Duration.ofSeconds(43), Duration.ofSeconds(183), Duration.ofSeconds(30));

  /** Every alarm of the stack, none of which fired: this test is about the retries' rows. */
  private static final List<AlarmOutcome> QUIET = AlarmNames.ALL.stream()
      .map(name -> new AlarmOutcome(name, 0, Optional.empty(), List.of())).toList();

  private static DeploymentReport report(String name, Optional<DeploymentReport.SendToBooking> sendToBooking,
      Optional<Map<FailureCause, Integer>> causes, Optional<DeploymentReport.Recovery> recovery) {
    return new DeploymentReport(name, name, 10, 1, 200, 4, 196, 0, 196, Optional.of(4), Map.of(), 0, 0, 0,
        new DeploymentReport.Receives(1.2, 4), new DeploymentReport.Receives(1, 1), 0, 0, 0, sendToBooking,
        Optional.empty(), Optional.of(Duration.ofSeconds(90)), Duration.ofSeconds(90), 746, 560, 0, QUIET,
        new DeploymentReport.PartnerCalls(230, 260), causes, recovery);
  }

  private static DeploymentReport.Spread spread(long p50Millis, long p95Millis, long maxMillis) {
    return new DeploymentReport.Spread(Duration.ofMillis(p50Millis), Duration.ofMillis(p95Millis), Duration.ofMillis(maxMillis));
  }

  private static final DeploymentReport FIXED = report("fixed",
      Optional.of(new DeploymentReport.SendToBooking(spread(1_500, 3_800, 7_100), spread(1_300, 3_500, 6_900),
          spread(210, 620, 1_400))),
      Optional.of(Map.of(FailureCause.LOOKUP_FAILED, 31, FailureCause.OUTCOME_UNKNOWN, 2)),
      Optional.of(new DeploymentReport.Recovery(40, 0, Optional.of(Duration.ofMillis(3_500)),
          Optional.of(new DeploymentReport.Spread(Duration.ofSeconds(6), Duration.ofSeconds(12), Duration.ofSeconds(14))),
          new DeploymentReport.Receives(3.5, 6))));
  private static final DeploymentReport INCIDENT = report("incident", Optional.empty(), Optional.empty(), Optional.empty());

  @Test
  void theTextReportCountsFailedTriesByCauseAndHowTheOutagesOrdersRecovered() {
    String text = new ReportText(SCALE).format(List.of(INCIDENT, FIXED));

    assertThat(text).containsPattern("failed tries, by cause \\(function log\\) +- \\(not logged\\) +33")
        .containsPattern("  lookup failed or timed out +31")
        .containsPattern("  5xx or no answer: outcome unknown +2")
        .doesNotContain("no time to book")
        .containsPattern("orders that met the outage +- +40")
        .containsPattern("  partner back to backlog booked +- +3\\.5 s \\(105 s\\)")
        .containsPattern("  send to booking p95 +- +12\\.0 s \\(6\\.0 min\\)")
        .containsPattern("  receives per order +- +mean 3\\.5, max 6");
  }

  @Test
  void onlyThePartnersShareOfSendToBookingGetsARealWorldEquivalent() {
    String text = new ReportText(SCALE).format(List.of(INCIDENT, FIXED));

    assertThat(text).containsPattern("send to booking p50 / p95 / max +- +1\\.5 s / 3\\.8 s / 7\\.1 s\\R")
        .containsPattern("  the partner answering p50 +- +1\\.3 s \\(39 s\\)")
        .containsPattern("  the partner answering p95 +- +3\\.5 s \\(105 s\\)")
        .containsPattern("  the partner answering max +- +6\\.9 s \\(3\\.5 min\\)")
        .containsPattern("  the rest \\(local s\\) p50 / p95 / max +- +0\\.21 s / 0\\.62 s / 1\\.40 s\\R");

    JsonNode fixed = new ReportJson(SCALE, SETTINGS).toJson(List.of(FIXED)).get(0);
    assertThat(fixed.at("/send_to_booking_partner_p95_seconds").asDouble()).isEqualTo(3.5);
    assertThat(fixed.at("/send_to_booking_partner_p95_real_seconds").asDouble()).isEqualTo(105.0);
    assertThat(fixed.at("/send_to_booking_rest_p50_seconds").asDouble()).isEqualTo(0.21);
    assertThat(fixed.at("/send_to_booking_max_seconds").asDouble()).isEqualTo(7.1);
    assertThat(fixed.has("send_to_booking_rest_p50_real_seconds") || fixed.has("send_to_booking_p50_real_seconds"))
        .as("no real-world twin for a figure this machine's own work is part of").isFalse();
  }

  @Test
  void aDayWithoutOutagesHasNoRecoveryRows() {
    assertThat(new ReportText(SCALE).format(List.of(INCIDENT))).doesNotContain("met the outage");
  }

  @Test
  void theJsonReportHasTheSameFigures() {
    JsonNode fixed = new ReportJson(SCALE, SETTINGS).toJson(List.of(INCIDENT, FIXED)).get(1);
    JsonNode incident = new ReportJson(SCALE, SETTINGS).toJson(List.of(INCIDENT, FIXED)).get(0);

    assertThat(fixed.at("/transient_failures/lookup_failed").asInt()).isEqualTo(31);
    assertThat(fixed.at("/transient_failures/outcome_unknown").asInt()).isEqualTo(2);
    assertThat(fixed.at("/outage_recovery/orders").asInt()).isEqualTo(40);
    assertThat(fixed.at("/outage_recovery/backlog_booked_after_seconds").asDouble()).isEqualTo(3.5);
    assertThat(fixed.at("/outage_recovery/backlog_booked_after_real_seconds").asDouble()).isEqualTo(105.0);
    assertThat(fixed.at("/outage_recovery/send_to_booking_p50_real_seconds").asDouble()).isEqualTo(180.0);
    assertThat(fixed.at("/outage_recovery/receives_per_order_mean").asDouble()).isEqualTo(3.5);
    assertThat(incident.has("transient_failures")).isFalse();
    assertThat(incident.has("outage_recovery")).isFalse();
  }
}
