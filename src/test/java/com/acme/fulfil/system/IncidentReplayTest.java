package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.EmbeddedAws;
import com.acme.fulfil.local.alarm.AlarmOutcome;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.scenario.DeploymentReport;
import com.acme.fulfil.local.scenario.PartnerDay;
import com.acme.fulfil.local.scenario.ReportJson;
import com.acme.fulfil.local.scenario.Scenario;
import com.acme.fulfil.local.scenario.ScenarioSettings;
import com.acme.fulfil.system.harness.PackagedArtifact;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * docs/local-run.md's run in small: the same orders through the incident's configuration and this project's,
 * judged by the partner's ledger and the queues, with this project's function run from its deployable
 * zip.
 */
class IncidentReplayTest {
  private static final TimeScale SCALE = TimeScale.INCIDENT_REPLAY;
  /**
   * Not production's 10 (./run-local's): each environment here is a JVM sharing the build's two cores, where Lambda
   * gives each a CPU of its own, and ten of them took more than twice the CPU of three. Three still book side by
   * side; the incident's function has no maximum.
   */
  private static final int MAX_CONCURRENCY = 3;

  @TempDir
  Path directory;

  @Test
  void incidentBooksOrdersTwiceAndRecyclesPoisonWhileTheFixBooksOnceAndDeadLettersIt() throws Exception {
    ScenarioSettings settings = new ScenarioSettings(30, 0.1, 0, PartnerDay.HEALTHY, 7,
        Duration.ofSeconds(3), Duration.ofSeconds(20), Duration.ofSeconds(12));
    List<DeploymentReport> reports;
    try (EmbeddedAws aws = EmbeddedAws.start(); SqsClient sqs = aws.connection().sqsClient()) {
      OrdersStack stack = new OrdersStack(sqs, aws.connection().dynamoDbClient(), aws.connection().secretsManagerClient());
      reports = new Scenario(aws.connection(), stack, sqs, SCALE, settings, TimingBudget.defaults()).run(List.of(
          Deployment.incident(SCALE),
          Deployment.fulfilOrder(TimingBudget.defaults(), SCALE, MAX_CONCURRENCY, PackagedArtifact.path())), line -> { });
    }

    DeploymentReport incident = reports.get(0);
    assertThat(incident.bookedTwiceOrMore()).isPositive();
    assertThat(incident.dlq()).isEmpty();
    assertThat(incident.neverBookableReceives().max()).as("poison recycles past where a DLQ would take it").isGreaterThan(5);
    assertThat(incident.queued()).isGreaterThanOrEqualTo(3);
    assertThat(incident.lost()).isZero();
    // Its function throws on the poison it is handed again and again; the double bookings page no one.
    assertThat(incident.alarms()).filteredOn(AlarmOutcome::fired).extracting(AlarmOutcome::name)
        .containsExactly(AlarmNames.FUNCTION_ERRORS);
    assertThat(incident.alarm(AlarmNames.DLQ_NEW_MESSAGES).notApplicable()).contains("no DLQ");

    DeploymentReport fixed = reports.get(1);
    assertThat(fixed.bookedTwiceOrMore()).isZero();
    assertThat(fixed.dlq()).contains(3);
    assertThat(fixed.neverBookableReceives().max()).as("sent to the DLQ by the function on its first receive").isEqualTo(1);
    // A good order is booked once, or (if a busy machine left it no time to book) still queued for its retry.
    assertThat(fixed.bookedOnce() + fixed.queued()).isEqualTo(27);
    assertThat(fixed.lost()).isZero();
    assertThat(fixed.alarm(AlarmNames.DLQ_NEW_MESSAGES).firings()).as("the poison's arrival pages").isNotEmpty();
    // The partner's drawn latencies are found for the orders they answered, and are a part of the whole.
    assertThat(fixed.sendToBooking()).hasValueSatisfying(s -> {
      assertThat(s.partner().p50()).isPositive();
      assertThat(s.partner().max()).isLessThanOrEqualTo(s.all().max());
    });

    Path json = directory.resolve("report.json");
    new ReportJson(SCALE, settings).write(reports, json);
    JsonNode written = new ObjectMapper().readTree(Files.readString(json));
    assertThat(written).hasSize(2);
    assertThat(written.get(1).get("configuration").asText()).isEqualTo("fixed");
    assertThat(written.get(1).get("booked_twice_or_more").asInt()).isZero();
    assertThat(written.get(1).get("dlq").asInt()).isEqualTo(3);
    assertThat(written.get(0).get("dlq").isNull()).isTrue();
    for (JsonNode configuration : written) {
      assertThat(configuration.has("orders") && configuration.has("booked_once") && configuration.has("queued")
          && configuration.has("lost")).isTrue();
      // 30 orders over 3 s local, 90 s real: 1,200 an hour.
      assertThat(configuration.get("offered_orders_per_hour").asLong()).isEqualTo(1200);
    }
    // The seeds' mapping had no maximum concurrency; this one books 3 x 3600 / 48 s an hour.
    assertThat(written.get(0).get("max_concurrency").asInt()).isEqualTo(Deployment.NO_MAXIMUM_CONCURRENCY);
    assertThat(written.get(1).get("capacity_orders_per_hour").asLong()).isEqualTo(225);
    JsonNode backlog = written.get(1).get("alarms").findParents("name").stream()
        .filter(alarm -> alarm.get("name").asText().equals(AlarmNames.BACKLOG)).findFirst().orElseThrow();
    // The backlog alarm's threshold is what the deployment books in 15 minutes: 225 / 4.
    assertThat(backlog.get("threshold").asLong()).isEqualTo(56);
    assertThat(written.get(0).get("alarms")).hasSize(AlarmNames.ALL.size());
  }
}
