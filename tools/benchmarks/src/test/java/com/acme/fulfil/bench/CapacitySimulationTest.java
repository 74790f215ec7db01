package com.acme.fulfil.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CapacitySimulationTest {

  @Test
  void everySizeKeepsTheMappingsMaximumConcurrencyAndNeverProvisionedMode() {
    // Provisioned mode and maximum concurrency are mutually exclusive on an SQS mapping: provisioned drops the cap.
    for (int concurrency : new int[] {10, 43, 299, 301, 427, 1000}) {
      assertThat(CapacitySimulation.scaling(concurrency)).startsWith("standard, capped").doesNotContainIgnoringCase("provisioned");
    }
    assertThat(CapacitySimulation.scaling(1186)).contains("two capped mappings").doesNotContainIgnoringCase("provisioned");
  }

  @Test
  void aMappingStartsAtFiveInvocationsAndAdds300AMinute() {
    assertThat(ScaleUp.STANDARD.allowed(0, 427)).isEqualTo(5);
    assertThat(ScaleUp.STANDARD.allowed(59.9, 427)).isEqualTo(5);
    assertThat(ScaleUp.STANDARD.allowed(60, 427)).isEqualTo(305);
    assertThat(ScaleUp.STANDARD.allowed(120, 427)).isEqualTo(427);
    assertThat(ScaleUp.STANDARD.minutesToReach(427)).isEqualTo(2);
    assertThat(ScaleUp.STANDARD.minutesToReach(5)).isZero();
    assertThat(ScaleUp.STANDARD.nextStep(130, 427)).isEqualTo(Double.MAX_VALUE);
  }

  @Test
  void aBurstOnAQuietQueueWaitsForTheRampThatAModelStartingAtFullConcurrencyMisses() {
    CapacitySimulation model = new CapacitySimulation(42);
    CapacitySimulation.Result ramp = model.run(23_810, 427, 1, false, Duration.ofHours(1), ScaleUp.STANDARD);
    CapacitySimulation.Result atOnce = model.run(23_810, 427, 1, false, Duration.ofHours(1), ScaleUp.AT_ONCE);

    // 400 orders a minute against five invocations of about 48 s each: the first minute's orders queue.
    assertThat(ramp.mostWaiting()).isGreaterThan(300);
    assertThat(ramp.firstMinutesP95()).isGreaterThan(atOnce.firstMinutesP95());
  }
}
