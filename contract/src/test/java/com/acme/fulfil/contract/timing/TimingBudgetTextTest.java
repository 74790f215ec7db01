package com.acme.fulfil.contract.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TimingBudgetTextTest {

  @Test
  void aBudgetScaledToTheNanosecondComesBackExactly() {
    // 280 s at 1/30 is 9.333333333 s: whole seconds would lose it, and the retry horizon's sum with it.
    TimingBudget scaled = TimingBudget.builder().batchSize(4).build().scaledDown(30);
    assertThat(TimingBudgetText.read(TimingBudgetText.write(scaled))).isEqualTo(scaled);
    assertThat(TimingBudgetText.read(TimingBudgetText.write(TimingBudget.defaults()))).isEqualTo(TimingBudget.defaults());
  }

  @Test
  void theLineNamesEveryNumberIncludingTheRetrySchedules() {
    String text = TimingBudgetText.write(TimingBudget.defaults());
    assertThat(text).contains("visibilityTimeout=PT30M", "maxReceiveCount=14", "retrySchedule.firstBackoff=PT5S")
        .doesNotContain(" ");
  }

  @Test
  void aLineWithAPartMissingOrUnreadableIsRefusedByName() {
    String text = TimingBudgetText.write(TimingBudget.defaults());
    assertThatThrownBy(() -> TimingBudgetText.read(text.replace("maxReceiveCount=14,", "")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("it has no maxReceiveCount");
    assertThatThrownBy(() -> TimingBudgetText.read(text.replace("visibilityTimeout=PT30M", "visibilityTimeout=90")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("visibilityTimeout is '90'");
  }

  @Test
  void aBudgetTheRulesRefuseIsRefusedWhenRead() {
    String text = TimingBudgetText.write(TimingBudget.defaults());
    assertThatThrownBy(() -> TimingBudgetText.read(text.replace("visibilityTimeout=PT30M",
        "visibilityTimeout=" + Duration.ofSeconds(30))))
        .isInstanceOf(InconsistentTimingException.class).hasMessageContaining("visibilityTimeoutSeconds is 30 s");
  }
}
