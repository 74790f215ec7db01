package com.acme.fulfil.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.acme.fulfil.local.aws.QueueSettings;
import com.acme.fulfil.local.runtime.PackagedFunction;
import com.acme.fulfil.timing.FunctionEnvironment;
import com.acme.fulfil.timing.TimingBudget;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DeploymentTest {
  private static final TimeScale SCALE = TimeScale.INCIDENT_REPLAY;

  @Test
  void incidentConfigurationIsTheSeedsQueueAndFunctionScaledByThirty() {
    Deployment incident = Deployment.incident(SCALE, 50);

    assertThat(incident.queue().visibilityTimeout()).isEqualTo(Duration.ofSeconds(1));
    assertThat(incident.queue().redrive()).isEmpty();
    assertThat(incident.mapping().functionTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(incident.mapping().batchSize()).isEqualTo(1);
    assertThat(incident.mapping().batchingWindow()).isZero();
    assertThat(incident.function()).isInstanceOf(Deployment.FunctionCode.Incident.class);
  }

  @Test
  void projectConfigurationTakesEveryNumberFromTheTimingBudget() {
    Deployment fixed = Deployment.fulfilOrder(TimingBudget.defaults(), SCALE, 50, PackagedFunction.DEFAULT_ARTIFACT);

    assertThat(fixed.queue().visibilityTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(fixed.queue().redrive()).contains(new QueueSettings.Redrive(14, Duration.ofDays(14).dividedBy(30)));
    assertThat(fixed.queue().retention()).isEqualTo(Duration.ofDays(4).dividedBy(30));
    assertThat(fixed.mapping().functionTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(fixed.mapping().maxConcurrency()).isEqualTo(50);
    assertThat(fixed.timingEnvironment())
        .containsEntry(FunctionEnvironment.PARTNER_WORST_CASE_MS, "9333")
        .containsEntry(FunctionEnvironment.MAX_RECEIVE_COUNT, "14");
  }

  @Test
  void projectConfigurationKeepsTheBudgetsBatchSize() {
    Deployment fixed = Deployment.fulfilOrder(TimingBudget.builder().batchSize(10).build(), SCALE, 50, PackagedFunction.DEFAULT_ARTIFACT);

    assertThat(fixed.mapping().batchSize()).isEqualTo(10);
  }

  @Test
  void scaleThatWouldPushTheIncidentsVisibilityUnderOneSecondIsRefused() {
    assertThatThrownBy(() -> new TimeScale(31))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("whole seconds");
  }

  @Test
  void queueRefusesAVisibilityTimeoutSqsCannotTake() {
    assertThatThrownBy(() -> new QueueSettings(Duration.ofMillis(1500), Duration.ofDays(4), Optional.empty()))
        .hasMessageContaining("whole seconds");
  }
}
