package com.acme.fulfil.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.acme.fulfil.local.scenario.PartnerDay;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RunOptionsTest {

  @Test
  void noOptionsReplayTwoHundredOrdersThroughBothConfigurations() {
    RunOptions options = RunOptions.parse();

    assertThat(options.orders()).isEqualTo(200);
    assertThat(options.poisonShare()).isEqualTo(0.02);
    assertThat(options.partnerDay()).isEqualTo(PartnerDay.HEALTHY);
    assertThat(options.configurations()).containsExactlyInAnyOrder("incident", "fixed");
    assertThat(options.serve()).isFalse();
    assertThat(options.json()).isEmpty();
    assertThat(options.report()).isEmpty();
    assertThat(options.ordersPerHour()).as("the rate the fixed configuration books, chosen by the run").isEmpty();
  }

  @Test
  void aPartnerThatGoesDownAddsTheConfigurationThatWaitedOutTheVisibilityTimeout() {
    assertThat(RunOptions.parse("--partner", "blips").partnerDay()).isEqualTo(PartnerDay.BLIPS);
    assertThat(RunOptions.parse("--partner", "blips").configurations()).containsExactlyInAnyOrder("incident", "fixed", "fixed-1800");
    assertThat(RunOptions.parse("--partner", "outage").configurations()).contains("fixed-1800");
    assertThat(RunOptions.parse("--partner", "degraded").configurations()).doesNotContain("fixed-1800");
    assertThat(RunOptions.parse("--partner", "outage", "--only", "fixed").configurations()).containsExactly("fixed");
    assertThat(RunOptions.parse("--only", "fixed-1800").configurations()).containsExactly("fixed-1800");
  }

  @Test
  void everyOptionOfTheHelpTextIsRead() {
    RunOptions options = RunOptions.parse("--orders", "50", "--poison", "10", "--rejected", "4", "--partner",
        "key-rotation", "--batch-size", "10", "--concurrency", "5", "--rate", "3000", "--seed", "7", "--only", "fixed",
        "--deadline", "90", "--json", "out/report.json", "--report", "docs/reports/local-run.md");

    assertThat(options.orders()).isEqualTo(50);
    assertThat(options.poisonShare()).isEqualTo(0.10);
    assertThat(options.rejectedShare()).isEqualTo(0.04);
    assertThat(options.partnerDay()).isEqualTo(PartnerDay.KEY_ROTATION);
    assertThat(options.batchSize()).isEqualTo(10);
    assertThat(options.concurrency()).isEqualTo(5);
    assertThat(options.ordersPerHour()).contains(3000);
    assertThat(options.seed()).isEqualTo(7);
    assertThat(options.configurations()).containsExactly("fixed");
    assertThat(options.deadline()).contains(Duration.ofSeconds(90));
    assertThat(options.json()).contains(Path.of("out/report.json"));
    assertThat(options.report()).contains(Path.of("docs/reports/local-run.md"));
    assertThat(RunOptions.USAGE).contains("--orders", "--poison", "--rejected", "--partner", "--batch-size",
        "--concurrency", "--rate", "--seed", "--only", "--deadline", "--json", "--report", "--serve", "--help");
  }

  @Test
  void unknownOptionIsRefusedByName() {
    assertThatThrownBy(() -> RunOptions.parse("--order", "5"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--order");
  }

  @Test
  void optionWithoutItsValueIsRefused() {
    assertThatThrownBy(() -> RunOptions.parse("--orders"))
        .hasMessageContaining("--orders needs a value");
  }

  @Test
  void unknownPartnerModeNamesTheModesThereAre() {
    assertThatThrownBy(() -> RunOptions.parse("--partner", "flaky"))
        .hasMessageContaining("healthy, degraded, outage, blips, key-rotation or long-outage");
  }
}
