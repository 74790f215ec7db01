package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.timing.TimingBudget;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code cutover}'s verdict on the old setup's mappings (docs/deploy.md, "First deploy: cutover from the old
 * setup"): exit status 0 only once every mapping is Disabled and the queue's visibility timeout, its function's
 * timeout and the late-booking hold have passed since; a mapping still enabled, a quiet time still running or no mapping at all is 1.
 */
class CutoverVerdictTest {
  private static final String QUEUE = "https://sqs.eu-west-1.amazonaws.com/111122223333/orders-to-fulfil";
  private static final Duration HOLD = TimingBudget.defaults().lateBookingHold();
  private static final Duration OLD_TIMEOUT = Duration.ofSeconds(300);
  private static final Duration OLD_VISIBILITY = Duration.ofSeconds(30);
  private static final Instant DISABLED_AT = Instant.parse("2026-11-30T09:00:00Z");
  private static final String OLD_FUNCTION = "arn:aws:lambda:eu-west-1:111122223333:function:fulfil-order";

  private static OldMapping mapping(String uuid, String state, Instant lastModified) {
    return new OldMapping(uuid, OLD_FUNCTION + ":live", state, lastModified, OLD_TIMEOUT);
  }

  @Test
  void anEnabledMappingIsToBeDisabledFirst() {
    Report report = CutoverVerdict.of(QUEUE, OLD_VISIBILITY, List.of(mapping("a1", "Enabled", DISABLED_AT)), HOLD, DISABLED_AT.plusSeconds(3600));

    assertThat(report.exitCode()).isEqualTo(1);
    assertThat(report.json().get("quiet").asBoolean()).isFalse();
    assertThat(report.json().get("quiet_from").isNull()).isTrue();
    assertThat(String.join("\n", report.lines())).contains("Still handing out orders: a1").contains("cutover --go");
  }

  @Test
  void aDisabledMappingIsQuietAfterItsFunctionsTimeoutAndTheLateBookingHold() {
    Instant quietFrom = DISABLED_AT.plus(OLD_VISIBILITY).plus(OLD_TIMEOUT).plus(HOLD);
    List<OldMapping> disabled = List.of(mapping("a1", "Disabled", DISABLED_AT));

    Report early = CutoverVerdict.of(QUEUE, OLD_VISIBILITY, disabled, HOLD, quietFrom.minusSeconds(1));
    assertThat(early.exitCode()).isEqualTo(1);
    assertThat(early.json().get("quiet_from").asText()).isEqualTo(quietFrom.toString());
    assertThat(String.join("\n", early.lines())).contains("Quiet from " + quietFrom + ", in 1 s").contains("Deploy nothing");

    Report quiet = CutoverVerdict.of(QUEUE, OLD_VISIBILITY, disabled, HOLD, quietFrom);
    assertThat(quiet.exitCode()).isZero();
    assertThat(quiet.json().get("quiet").asBoolean()).isTrue();
    assertThat(quiet.lines()).contains("  aws lambda delete-event-source-mapping --uuid a1",
        "  aws lambda delete-function --function-name " + OLD_FUNCTION);
  }

  /** Each mapping's tries can run to its own function's timeout: the latest of them decides. */
  @Test
  void theLastMappingToStopDecides() {
    Instant later = DISABLED_AT.plusSeconds(120);
    List<OldMapping> both = List.of(mapping("a1", "Disabled", DISABLED_AT), mapping("b2", "Disabled", later));

    Report report = CutoverVerdict.of(QUEUE, OLD_VISIBILITY, both, HOLD, DISABLED_AT.plus(OLD_VISIBILITY).plus(OLD_TIMEOUT).plus(HOLD));

    assertThat(report.exitCode()).isEqualTo(1);
    assertThat(report.json().get("quiet_from").asText()).isEqualTo(later.plus(OLD_VISIBILITY).plus(OLD_TIMEOUT).plus(HOLD).toString());
  }

  @Test
  void aMappingStillDisablingIsNotQuiet() {
    Report report = CutoverVerdict.of(QUEUE, OLD_VISIBILITY, List.of(mapping("a1", "Disabling", DISABLED_AT)), HOLD,
        DISABLED_AT.plusSeconds(3600));

    assertThat(report.exitCode()).isEqualTo(1);
    assertThat(report.json().get("quiet").asBoolean()).isFalse();
  }

  /** Nothing proves when a deleted mapping stopped: the verdict never reads "quiet" from its absence. */
  @Test
  void noMappingProvesNothing() {
    Report report = CutoverVerdict.of(QUEUE, OLD_VISIBILITY, List.of(), HOLD, DISABLED_AT);

    assertThat(report.exitCode()).isEqualTo(1);
    assertThat(report.json().get("quiet").asBoolean()).isFalse();
    assertThat(String.join("\n", report.lines())).contains("nothing here can say when the old one stopped");
  }
}
