package com.acme.fulfil.contract.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CapacityTest {

  @Test
  void theDefaultsBookAbout750AnHourTypicallyAnd126AtTheWorstCase() {
    Capacity capacity = TimingBudget.defaults().capacity(10);

    // 10 x 3600 / 48 s and 10 x 3600 / (5 s lookup + 280 s booking)
    assertThat(capacity.typicalOrdersPerHour()).isEqualTo(750);
    assertThat(capacity.worstCaseOrdersPerHour()).isEqualTo(126);
    assertThat(capacity.callsAtOnce()).isEqualTo(10);
    assertThat(capacity.reservedConcurrency()).as("the mapping's 10, and room for a test invoke").isEqualTo(12);
    assertThat(capacity.sentence()).startsWith("books about 750 orders an hour on a normal partner day (48 s an order)"
        + " and 126 at the worst case the budget absorbs (285 s an order)");
  }

  @Test
  void aFullBatchLastsAsLongAsItsSlowestRecordNotOneOrdersTypicalTime() {
    TimingBudget sideBySide = TimingBudget.builder().batchSize(10).recordConcurrency(10).build();
    TimingBudget inTwoRounds = TimingBudget.builder().batchSize(10).recordConcurrency(5)
        .functionTimeout(Duration.ofSeconds(600)).build();

    // One order takes 48 s typically, but the slowest of ten side by side 103 s: 10 x 10 x 3600 / 103, not / 48.
    assertThat(sideBySide.capacity(10).typicalRound()).isEqualTo(Duration.ofSeconds(103));
    assertThat(sideBySide.capacity(10).typicalOrdersPerHour()).isEqualTo(3495);
    assertThat(sideBySide.capacity(10).backlogAlarmThreshold()).isEqualTo(874);
    assertThat(sideBySide.capacity(10).callsAtOnce()).isEqualTo(100);
    assertThat(sideBySide.capacity(10).sentence())
        .startsWith("books about 3,495 orders an hour on a normal partner day (103 s a round of 10 side by side, its slowest)");
    // Two rounds of five, each the slowest of five (78 s): 10 x 10 x 3600 / (2 x 78).
    assertThat(inTwoRounds.capacity(10).typicalOrdersPerHour()).isEqualTo(2307);
    assertThat(inTwoRounds.capacity(10).callsAtOnce()).isEqualTo(50);
  }

  @Test
  void aRoundOfMoreRecordsTakesLongerTypicallyAndNeverLessThanOneOrder() {
    for (int orders = 2; orders <= PartnerTypicalTime.MOST_SIDE_BY_SIDE; orders++) {
      assertThat(PartnerTypicalTime.slowestOf(orders)).isGreaterThan(PartnerTypicalTime.slowestOf(orders - 1));
    }
    assertThat(PartnerTypicalTime.slowestOf(1)).isEqualTo(Duration.ofSeconds(48));
    assertThatThrownBy(() -> PartnerTypicalTime.slowestOf(11)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theBacklogThresholdIsWhatTheStackTypicallyBooksInTheWindow() {
    assertThat(TimingBudget.defaults().capacity(10).backlogAlarmThreshold()).isEqualTo(188);
    assertThat(TimingBudget.defaults().capacity(20).typicallyBookedIn(Duration.ofMinutes(30))).isEqualTo(750);
  }

  @Test
  void aPeakAboveTheWorstCaseCapacityIsRefusedNamingTheConcurrencyThatWouldBookIt() {
    Capacity capacity = TimingBudget.defaults().capacity(10);

    assertThatCode(() -> capacity.requireAtLeast(126)).doesNotThrowAnyException();
    assertThatThrownBy(() -> capacity.requireAtLeast(300))
        .isInstanceOf(InconsistentTimingException.class)
        .hasMessageContaining("peakOrdersPerHour is 300 but at the partner's worst case (285 s an order")
        .hasMessageContaining("maxConcurrency 10 x batchSize 1 books 126 orders an hour")
        // 300 x 285 / 3600 = 23.75
        .hasMessageContaining("raise maxConcurrency to at least 24");
  }

  @Test
  void aPeakNoConcurrencyReachesAloneNamesTheBatch() {
    assertThatThrownBy(() -> TimingBudget.defaults().capacity(1000).requireAtLeast(20_000))
        .hasMessageContaining("maxConcurrency alone cannot reach it (at most 1000): raise batchSize together with recordConcurrency");
  }
}
