package com.acme.fulfil.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.timing.TimingBudget;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LocalBudgetTest {

  @Test
  void atTheIncidentsScaleRealWorkKeepsASecondAndTheTimeoutsGrowToHoldIt() {
    TimingBudget local = LocalBudget.of(TimingBudget.defaults(), TimeScale.INCIDENT_REPLAY);

    assertThat(local.partnerLookupTimeout()).isEqualTo(LocalBudget.REAL_WORK);
    assertThat(local.partnerDeadlineMargin()).isEqualTo(LocalBudget.REAL_WORK);
    assertThat(local.partnerWorstCase().toMillis()).as("the partner's tail is scaled").isEqualTo(9_333);
    assertThat(local.functionTimeout()).as("1 s lookup + 9.3 s call + 1 s margin + 3 s spare, whole seconds")
        .isEqualTo(Duration.ofSeconds(15));
    assertThat(local.visibilityTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(local.maxReceiveCount()).isEqualTo(14);
    assertThat(local.retrySchedule()).isEqualTo(TimingBudget.defaults().scaledDown(30).retrySchedule());
  }

  @Test
  void theFloorNeverBindsWhereTheScaledBudgetAlreadyHasRoom() {
    assertThat(LocalBudget.of(TimingBudget.defaults(), new TimeScale(1))).isEqualTo(TimingBudget.defaults());
  }

  @Test
  void atEveryScaleTheLookupAndTheSpareTimeKeepTheFloorAndTheBudgetStaysConsistent() {
    for (int batchSize : new int[] {1, 10}) {
      TimingBudget deployed = TimingBudget.builder().batchSize(batchSize).build();
      // The divisors that keep the durations SQS and Lambda take in whole seconds whole.
      for (int divisor : new int[] {1, 2, 3, 5, 6, 10, 15, 30}) {
        // The constructor runs every check of the deployed budget: reaching here means it passed.
        TimingBudget local = LocalBudget.of(deployed, new TimeScale(divisor));

        assertThat(local.partnerLookupTimeout()).isGreaterThanOrEqualTo(LocalBudget.REAL_WORK);
        assertThat(local.partnerDeadlineMargin()).isGreaterThanOrEqualTo(LocalBudget.REAL_WORK);
        Duration busiest = local.partnerLookupTimeout().plus(local.partnerWorstCase()).plus(local.partnerDeadlineMargin())
            .multipliedBy(local.sequentialRounds());
        assertThat(local.functionTimeout().minus(busiest)).as("spare at 1/%d, batch %d", divisor, batchSize)
            .isGreaterThanOrEqualTo(LocalBudget.COLD_TRY);
      }
    }
  }
}
