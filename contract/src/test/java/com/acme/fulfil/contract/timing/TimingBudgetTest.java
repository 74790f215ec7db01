package com.acme.fulfil.contract.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.acme.fulfil.contract.alarms.AlarmRules;
import com.acme.fulfil.contract.settings.FunctionEnvironment;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimingBudgetTest {

  @Test
  void defaultsAreTheSeedsFix() {
    TimingBudget b = TimingBudget.defaults();
    assertThat(b.functionTimeout()).isEqualTo(Duration.ofSeconds(300));
    assertThat(b.visibilityTimeout()).isEqualTo(Duration.ofSeconds(1800));
    // 4, 8, 16 ... 1,024, 1,440 s (each backoff less its 20% jitter): 14 receives retry at least 9,244 s.
    assertThat(b.maxReceiveCount()).isEqualTo(14);
    assertThat(b.retrySchedule().shortestRetrying(14)).isEqualTo(Duration.ofSeconds(9244));
    assertThat(b.longestRetryLife()).isEqualTo(Duration.ofSeconds(14 * 1800));
    assertThat(b.sourceRetention()).isEqualTo(Duration.ofDays(4));
    assertThat(b.dlqRetention()).isEqualTo(Duration.ofDays(14));
    assertThat(b.idempotencyTtl()).isEqualTo(Duration.ofDays(21));
    assertThat(b.batchSize()).isEqualTo(1);
    assertThat(b.retryHorizon()).isEqualTo(Duration.ofMinutes(150));
  }

  @Test
  void inAnOutageAnOrderIsInFlightForItsWholeRetriesNotOneVisibilityPeriod() {
    TimingBudget b = TimingBudget.defaults();
    // 5 + 10 + ... + 1,280 s, then 1,800 s five times: 11,555 s of backoffs, less 10% on average.
    assertThat(b.outageRetryLife()).isEqualTo(Duration.ofMillis(10_399_500));
    assertThat(b.outageRetryLife()).isBetween(b.retryHorizon(), b.longestRetryLife());
    // 2,381 orders an hour (10x the expected volume's busiest hour) retrying 10,400 s: about 5.8 times the
    // 1,190 a single 30-minute visibility period would hold.
    assertThat(b.inFlightThroughOutage(2381)).isEqualTo(6878);
    assertThat(b.inFlightThroughOutage(23_810)).isEqualTo(68_781).isLessThan(AlarmRules.IN_FLIGHT_WARNING);
  }

  @Test
  void incidentConfigurationIsRefusedNamingVisibility() {
    assertThatThrownBy(() -> TimingBudget.builder().visibilityTimeout(Duration.ofSeconds(30)).build())
        .isInstanceOf(InconsistentTimingException.class)
        .hasMessageContaining("visibilityTimeoutSeconds is 30 s but must be at least 6 x functionTimeoutSeconds (300 s)")
        .hasMessageContaining("= 1800 s");
  }

  @Test
  void batchingWindowAddsToTheVisibilityFloor() {
    assertThatThrownBy(() -> TimingBudget.builder().batchingWindow(Duration.ofSeconds(20))
            .visibilityTimeout(Duration.ofSeconds(1800)).build())
        .hasMessageContaining("= 1820 s");
    assertThat(TimingBudget.builder().batchingWindow(Duration.ofSeconds(20)).build().visibilityTimeout())
        .isEqualTo(Duration.ofSeconds(1820));
  }

  /**
   * Review: 291 s was accepted, but a redelivery looks the order up first (5 s) and then has too little
   * left to book, so good orders reached the DLQ.
   */
  @Test
  void functionTimeoutMustOutlastTheLookupTheWorstPartnerCallAndTheMargin() {
    assertThatThrownBy(() -> TimingBudget.builder().functionTimeout(Duration.ofSeconds(291)).build())
        .hasMessageContaining("functionTimeoutSeconds is 291 s but must be longer than 295 s")
        .hasMessageContaining("looked up first (up to 5 s)");
    assertThat(TimingBudget.builder().functionTimeout(Duration.ofSeconds(296)).build().functionTimeout())
        .isEqualTo(Duration.ofSeconds(296));
    assertThatThrownBy(() -> TimingBudget.builder().partnerContractMaximum(Duration.ofMinutes(8))
            .partnerWorstCase(Duration.ofMinutes(8)).build())
        .hasMessageContaining("must be longer than 495 s");
  }

  @Test
  void aTryNeverWaitsLongerThanThePartnersContract() {
    assertThatThrownBy(() -> TimingBudget.builder().partnerWorstCase(Duration.ofSeconds(301))
            .functionTimeout(Duration.ofSeconds(400)).build())
        .hasMessageContaining("partnerWorstCaseSeconds is 301 s but the partner's contract promises an answer within 300 s");
  }

  /** Review: the lock ended 280 s after the failure, while the partner may book up to 300 s after the POST. */
  @Test
  void anUnansweredBookingIsHeldForTheContractsMaximumPlusClockSkew() {
    TimingBudget budget = TimingBudget.defaults();
    assertThat(budget.lateBookingHold()).isEqualTo(Duration.ofSeconds(305));
    assertThat(budget.functionEnvironment())
        .containsEntry(FunctionEnvironment.PARTNER_LATE_BOOKING_HOLD_MS, "305000")
        .containsEntry(FunctionEnvironment.PARTNER_LOOKUP_TIMEOUT_MS, "5000");
    assertThat(budget.scaledDown(30).lateBookingHold().toMillis()).isEqualTo(10_166);
  }

  @Test
  void functionTimeoutAbove900IsRefused() {
    assertThatThrownBy(() -> TimingBudget.builder().functionTimeout(Duration.ofSeconds(901)).build())
        .hasMessageContaining("from 1 to 900");
  }

  @Test
  void visibilityAboveTwelveHoursIsRefused() {
    assertThatThrownBy(() -> TimingBudget.builder().visibilityTimeout(Duration.ofHours(13)).build())
        .hasMessageContaining("43200");
  }

  @Test
  void maxReceiveCountBelowTwoIsRefused() {
    assertThatThrownBy(() -> TimingBudget.builder().maxReceiveCount(1).build())
        .hasMessageContaining("maxReceiveCount is 1 but must be from 2 to 1000");
  }

  @Test
  void dlqRetentionMustExceedSourceRetention() {
    assertThatThrownBy(() -> TimingBudget.builder().dlqRetention(Duration.ofDays(4)).build())
        .hasMessageContaining("dlqRetentionDays is 4 days but must be longer than sourceRetentionDays (4 days)");
  }

  @Test
  void idempotencyTtlMustCoverBothRetentions() {
    assertThatThrownBy(() -> TimingBudget.builder().idempotencyTtl(Duration.ofHours(1)).build())
        .hasMessageContaining("idempotencyTtlDays is 3600 s but must be at least sourceRetentionDays + dlqRetentionDays = 18 days");
  }

  @Test
  void batchThatCannotFinishAtItsConcurrencyIsRefused() {
    assertThatThrownBy(() -> TimingBudget.builder().batchSize(10).recordConcurrency(5).build())
        .hasMessageContaining("a batch of 10 at recordConcurrency 5 runs 2 rounds one after another")
        .hasMessageContaining("must be longer than 590 s");
    assertThat(TimingBudget.builder().batchSize(10).recordConcurrency(10).build().sequentialRounds()).isEqualTo(1);
  }

  /**
   * Review: 576 s was accepted for two rounds (5 + 2 x 280 + 10 = 575 s), but every record of the second
   * round looks its order up too and records its outcome after its call: after a worst-case first round
   * (lookup 5 s, call 280 s, writes) the second round's record had less than 280 s left once looked up and
   * failed with no time to book. CallWindow keeps the margin back for every record, so each round
   * costs lookup + worst case + margin.
   */
  @Test
  void everyRoundOfABatchCountsItsOwnLookupWorstCaseAndMargin() {
    assertThatThrownBy(() -> TimingBudget.fromSettings(
            Map.of("batchSize", "10", "recordConcurrency", "5", "functionTimeoutSeconds", "576")::get))
        .isInstanceOf(InconsistentTimingException.class)
        .hasMessageContaining("functionTimeoutSeconds is 576 s but must be longer than 590 s")
        .hasMessageContaining("each of them an order's lookup (up to 5 s), a partner call of up to 280 s and 10 s");
    assertThat(TimingBudget.fromSettings(
            Map.of("batchSize", "10", "recordConcurrency", "5", "functionTimeoutSeconds", "591")::get).sequentialRounds())
        .isEqualTo(2);
    assertThatThrownBy(() -> TimingBudget.fromSettings(
            Map.of("batchSize", "10", "recordConcurrency", "4", "functionTimeoutSeconds", "885")::get))
        .hasMessageContaining("must be longer than 885 s");
  }

  /**
   * Review: 200 receives x 1,800 s (100 h) synthesized against 4 days of retention: in a long outage SQS
   * deletes an order before the redrive policy moves it.
   */
  @Test
  void aRetryHorizonLongerThanTheSourceKeepsMessagesIsRefused() {
    assertThatThrownBy(() -> TimingBudget.fromSettings(Map.of("maxReceiveCount", "200")::get))
        .isInstanceOf(InconsistentTimingException.class)
        .hasMessageContaining("the longest retry life (visibilityTimeoutSeconds 1800 s x maxReceiveCount 200 = 360000 s")
        .hasMessageContaining("sourceRetentionDays (4 days)")
        .hasMessageContaining("Lower maxReceiveCount to at most 191");
    assertThatThrownBy(() -> TimingBudget.builder().visibilityTimeout(Duration.ofHours(12)).maxReceiveCount(9).build())
        .hasMessageContaining("= 388800 s");
  }

  /** The redrive policy moves a message only when it is next received: the retention keeps a margin past the longest life. */
  @Test
  void theSourceKeepsMessagesAMarginPastTheLongestRetryLife() {
    Duration fourDays = Duration.ofDays(4);
    Duration lead = TimingBudget.RETENTION_MARGIN;
    Duration visibility = Duration.ofSeconds(1800);
    int receives = (int) (fourDays.minus(lead).toSeconds() / visibility.toSeconds());
    TimingBudget fits = TimingBudget.builder().maxReceiveCount(receives).build();
    assertThat(fits.longestRetryLife().plus(lead)).isLessThanOrEqualTo(fits.sourceRetention());
    assertThatThrownBy(() -> TimingBudget.builder().maxReceiveCount(192).build())
        .hasMessageContaining("345600 s");
    // 191 x 1,800 s = 343,800 s; + 600 s = 344,400 s < 345,600 s. 192 x 1,800 s = 345,600 s leaves no margin.
    assertThat(receives).isEqualTo(191);
  }

  /**
   * SQS's ApproximateAgeOfOldestMessage leaves out a message from its third receive on: a working consumer
   * lets no message it still ages grow older than two tries and the waits they set.
   */
  @Test
  void sqsAgesAMessageOverItsFirstTwoReceivesOnly() {
    assertThat(TimingBudget.defaults().longestAgeSqsSees()).isEqualTo(Duration.ofSeconds(2 * (300 + 1800)));
    assertThat(TimingBudget.fromSettings(Map.of("functionTimeoutSeconds", "600")::get).longestAgeSqsSees())
        .isEqualTo(Duration.ofSeconds(2 * (600 + 3600)));
  }

  @Test
  void aMaxReceiveCountTooFewForTheRetryHorizonIsRefusedNamingTheDerivedOne() {
    assertThatThrownBy(() -> TimingBudget.fromSettings(Map.of("maxReceiveCount", "5")::get))
        .isInstanceOf(InconsistentTimingException.class)
        .hasMessageContaining("maxReceiveCount is 5 but an order failing fast retries only 124 s")
        .hasMessageContaining("it is derived: 14");
    assertThat(TimingBudget.fromSettings(Map.of("retryHorizonSeconds", "18000")::get).maxReceiveCount()).isEqualTo(21);
  }

  @Test
  void synthPrintsTheScheduleAndBothEndsOfTheRetryLife() {
    assertThat(TimingBudget.defaults().retrySentence())
        .contains("returns after 5 s, 10 s, 20 s, 40 s, 80 s, 160 s, 320 s, 640 s, 1280 s, 1800 s, 1800 s")
        .contains("retries at least 9244 s (retryHorizonSeconds 9000 s) and at most 25200 s before the DLQ (maxReceiveCount 14)");
  }

  @Test
  void scalingKeepsTheDerivedReceivesAndTheirHorizon() {
    TimingBudget local = TimingBudget.defaults().scaledDown(30);
    assertThat(local.maxReceiveCount()).isEqualTo(14);
    assertThat(local.retrySchedule().shortestRetrying(14)).isGreaterThanOrEqualTo(local.retryHorizon());
    assertThat(local.retryHorizon()).isBetween(Duration.ofSeconds(299), Duration.ofSeconds(300));
  }

  @Test
  void everyBrokenRuleIsReportedAtOnce() {
    var e = (InconsistentTimingException) org.junit.jupiter.api.Assertions.assertThrows(
        InconsistentTimingException.class,
        () -> TimingBudget.builder().visibilityTimeout(Duration.ofSeconds(30)).maxReceiveCount(1).build());
    assertThat(e.problems()).hasSize(2);
  }

  @Test
  void changingTheFunctionTimeoutAloneDerivesAConsistentVisibility() {
    TimingBudget b = TimingBudget.fromSettings(Map.of("functionTimeoutSeconds", "600")::get);
    assertThat(b.visibilityTimeout()).isEqualTo(Duration.ofSeconds(3600));
  }

  @Test
  void settingsThatAreNotNumbersAreNamed() {
    assertThatThrownBy(() -> TimingBudget.fromSettings(Map.of("batchSize", "ten")::get))
        .hasMessage("batchSize must be a whole number, got 'ten'.");
  }

  @Test
  void scalingByThirtyKeepsTheIncidentsThirtySecondsAtOneSecond() {
    TimingBudget local = TimingBudget.defaults().scaledDown(30);
    assertThat(local.visibilityTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(local.functionTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(local.partnerWorstCase().toMillis()).isEqualTo(9333);
  }

  @Test
  void scalingThatBreaksWholeSecondsIsRefused() {
    assertThatThrownBy(() -> TimingBudget.defaults().scaledDown(7))
        .hasMessageContaining("whole number of seconds");
  }

  @Test
  void functionEnvironmentCarriesTheFunctionsShare() {
    assertThat(TimingBudget.defaults().functionEnvironment())
        .containsEntry(FunctionEnvironment.PARTNER_DEADLINE_MARGIN_MS, "10000")
        .containsEntry(FunctionEnvironment.PARTNER_WORST_CASE_MS, "280000")
        .containsEntry(FunctionEnvironment.MAX_RECEIVE_COUNT, "14")
        .containsEntry(FunctionEnvironment.RETRY_FIRST_BACKOFF_MS, "5000")
        .containsEntry(FunctionEnvironment.RETRY_LONGEST_BACKOFF_MS, "1800000")
        .containsEntry(FunctionEnvironment.RETRY_JITTER_PERCENT, "20")
        .containsEntry(FunctionEnvironment.RETRY_AFTER_LOCK_MS, "5000")
        .containsEntry(FunctionEnvironment.IDEMPOTENCY_TTL_SECONDS, Long.toString(21 * 86_400));
  }
}
