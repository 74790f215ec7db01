package com.acme.fulfil.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.aws.QueueSettings;
import com.acme.fulfil.local.runtime.PackagedFunction;
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

    assertThat(fixed.queue().visibilityTimeout()).as("6 x the function timeout with real work's floor").isEqualTo(Duration.ofSeconds(90));
    assertThat(fixed.queue().redrive()).contains(new QueueSettings.Redrive(14, Duration.ofDays(14).dividedBy(30)));
    assertThat(fixed.queue().retention()).isEqualTo(Duration.ofDays(4).dividedBy(30));
    assertThat(fixed.mapping().functionTimeout()).isEqualTo(Duration.ofSeconds(15));
    assertThat(fixed.mapping().maxConcurrency()).isEqualTo(50);
    assertThat(fixed.timingEnvironment())
        .containsEntry(FunctionEnvironment.PARTNER_WORST_CASE_MS, "9333")
        .containsEntry(FunctionEnvironment.MAX_RECEIVE_COUNT, "14");
  }

  @Test
  void fixed1800IsTheSameFunctionWithEveryFailureWaitingTheWholeVisibilityTimeout() {
    Deployment fixed1800 = Deployment.waitingOutTheVisibilityTimeout(TimingBudget.defaults(), SCALE, 50,
        PackagedFunction.DEFAULT_ARTIFACT);

    assertThat(fixed1800.name()).isEqualTo("fixed-1800");
    assertThat(fixed1800.function()).isInstanceOf(Deployment.FunctionCode.Packaged.class);
    assertThat(fixed1800.queue().redrive()).as("five receives of 1,800 s keep the 2.5 h horizon, as deployed before")
        .contains(new QueueSettings.Redrive(5, Duration.ofDays(14).dividedBy(30)));
    assertThat(fixed1800.timingEnvironment())
        .containsEntry(FunctionEnvironment.RETRY_FIRST_BACKOFF_MS, "60000")
        .containsEntry(FunctionEnvironment.RETRY_LONGEST_BACKOFF_MS, "60000")
        .containsEntry(FunctionEnvironment.RETRY_JITTER_PERCENT, "0");
    assertThat(fixed1800.mapping().functionTimeout())
        .isEqualTo(Deployment.fulfilOrder(TimingBudget.defaults(), SCALE, 50, PackagedFunction.DEFAULT_ARTIFACT).mapping().functionTimeout());
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
