package com.acme.fulfil.contract.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.acme.fulfil.contract.sqs.SqsLimits;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

/**
 * The derived maxReceiveCount against the waits a failing order can get: whatever set of numbers the
 * check accepts, an order whose every try fails as fast as the schedule allows still retries for the
 * horizon before the redrive policy moves it, one that keeps the longest wait still reaches the DLQ
 * before the source queue's retention deletes it, and the queue's own visibility timeout (what a
 * killed try, or a failed ChangeMessageVisibility, leaves) outlasts every backoff and every lock.
 */
class RetrySchedulePropertyTest {

  /** The numbers a person might put in cdk.json, and the schedule's own. */
  record Settings(int functionTimeoutSeconds, int retryHorizonSeconds, int firstBackoffMillis, int jitterPercent,
      int sourceRetentionHours, Optional<Integer> maxReceiveCount) {

    Optional<TimingBudget> budget() {
      TimingBudget.Builder builder = TimingBudget.builder()
          .functionTimeout(Duration.ofSeconds(functionTimeoutSeconds))
          .partnerWorstCase(Duration.ofSeconds(Math.min(280, functionTimeoutSeconds / 2)))
          .partnerLookupTimeout(Duration.ofSeconds(1))
          .partnerDeadlineMargin(Duration.ofSeconds(1))
          .retryHorizon(Duration.ofSeconds(retryHorizonSeconds))
          .firstBackoff(Duration.ofMillis(firstBackoffMillis))
          .jitterPercent(jitterPercent)
          .sourceRetention(Duration.ofHours(sourceRetentionHours));
      maxReceiveCount.ifPresent(builder::maxReceiveCount);
      try {
        return Optional.of(builder.build());
      } catch (InconsistentTimingException e) {
        return Optional.empty();
      }
    }
  }

  @Provide
  Arbitrary<Settings> settings() {
    return Combinators.combine(
        Arbitraries.integers().between(5, 900),
        Arbitraries.integers().between(1, 86_400),
        Arbitraries.integers().between(1, 600_000),
        Arbitraries.integers().between(-5, 60),
        Arbitraries.integers().between(1, 14 * 24),
        Arbitraries.integers().between(1, 1200).optional(0.3))
        .as(Settings::new);
  }

  @Property(tries = 2000, maxDiscardRatio = 20)
  void anAcceptedBudgetKeepsAnOrderFailingAsFastAsItCanRetryingForTheHorizon(@ForAll("settings") Settings settings) {
    Optional<TimingBudget> accepted = settings.budget();
    Assume.that(accepted.isPresent());
    TimingBudget budget = accepted.get();
    RetrySchedule schedule = budget.retrySchedule();

    Duration fastestLife = Duration.ZERO;
    for (int receive = 1; receive <= budget.maxReceiveCount(); receive++) {
      fastestLife = fastestLife.plus(schedule.shortestWait(receive));
    }

    assertThat(fastestLife).as("the fastest an order can fail its way to the DLQ").isGreaterThanOrEqualTo(budget.retryHorizon());
  }

  @Property(tries = 2000, maxDiscardRatio = 20)
  void aDerivedMaxReceiveCountIsTheFewestThatKeepTheHorizon(@ForAll("settings") Settings settings) {
    Assume.that(settings.maxReceiveCount().isEmpty());
    Optional<TimingBudget> accepted = settings.budget();
    Assume.that(accepted.isPresent());
    TimingBudget budget = accepted.get();
    Assume.that(budget.maxReceiveCount() > 2);

    assertThat(budget.retrySchedule().shortestRetrying(budget.maxReceiveCount() - 1))
        .as("one receive fewer falls short of the horizon").isLessThan(budget.retryHorizon());
  }

  @Property(tries = 2000, maxDiscardRatio = 20)
  void anAcceptedBudgetMovesAnOrderKeepingTheLongestWaitToTheDlqBeforeItsRetentionEnds(
      @ForAll("settings") Settings settings) {
    Optional<TimingBudget> accepted = settings.budget();
    Assume.that(accepted.isPresent());
    TimingBudget budget = accepted.get();

    Duration longestWait = budget.visibilityTimeout();
    assertThat(budget.retrySchedule().longestBackoff()).isLessThanOrEqualTo(longestWait);
    assertThat(budget.functionTimeout().plus(budget.lateBookingHold()).plus(budget.retrySchedule().afterLock()))
        .as("the longest lock a failed try can leave, and the wait past it").isLessThanOrEqualTo(longestWait);
    assertThat(longestWait.multipliedBy(budget.maxReceiveCount()).plus(TimingBudget.RETENTION_MARGIN))
        .as("every receive waiting the visibility timeout, then the margin before SQS deletes the order")
        .isLessThanOrEqualTo(budget.sourceRetention());
  }

  @Property(tries = 500)
  void waitsGrowWithTheReceivesAndStopAtTheLongest(@ForAll @IntRange(min = 1, max = 1200) int receive,
      @ForAll @IntRange(min = 1, max = 100_000) int firstMillis, @ForAll @IntRange(min = 0, max = 50) int jitter) {
    RetrySchedule schedule = new RetrySchedule(Duration.ofMillis(firstMillis), Duration.ofHours(12), jitter, Duration.ZERO);

    assertThat(schedule.backoff(receive + 1)).isGreaterThanOrEqualTo(schedule.backoff(receive));
    assertThat(schedule.backoff(receive)).isLessThanOrEqualTo(Duration.ofHours(12));
    assertThat(schedule.shortestWait(receive)).isLessThanOrEqualTo(schedule.backoff(receive));
  }

  /**
   * Whatever four numbers build a schedule, every wait it gives is one SQS takes as a visibility timeout
   * (positive, at most 12 h), and an order waits past another try's lock, never before its end.
   */
  @Property(tries = 2000)
  void aScheduleThatBuildsOnlyGivesWaitsSqsTakes(@ForAll @LongRange(min = -100, max = 100_000) long firstMillis,
      @ForAll @LongRange(min = -100, max = 50_000_000) long longestMillis, @ForAll @IntRange(min = -5, max = 60) int jitter,
      @ForAll @LongRange(min = -100, max = 10_000) long afterLockMillis, @ForAll @IntRange(min = 1, max = 100) int receive) {
    // Both ways are tried often enough to mean something.
    Statistics.coverage(checker -> {
      checker.check("built").percentage(p -> p > 5);
      checker.check("refused").percentage(p -> p > 5);
    });
    RetrySchedule schedule;
    try {
      schedule = new RetrySchedule(Duration.ofMillis(firstMillis), Duration.ofMillis(longestMillis), jitter,
          Duration.ofMillis(afterLockMillis));
    } catch (IllegalArgumentException refused) {
      Statistics.collect("refused");
      assertThat(refused).hasMessageStartingWith("not a retry schedule: ");
      return;
    }
    Statistics.collect("built");
    assertThat(schedule.shortestWait(receive)).isPositive();
    assertThat(schedule.backoff(receive)).isLessThanOrEqualTo(SqsLimits.MAX_VISIBILITY);
    assertThat(schedule.afterLock()).isGreaterThanOrEqualTo(Duration.ZERO);
  }

  @Test
  void aScheduleOutsideItsRulesIsRefusedSayingWhichRule() {
    Duration second = Duration.ofSeconds(1);
    assertThatThrownBy(() -> new RetrySchedule(Duration.ZERO, second, 20, Duration.ZERO))
        .hasMessage("not a retry schedule: its first backoff must be positive, got 0 s.");
    assertThatThrownBy(() -> new RetrySchedule(Duration.ofSeconds(5), second, 20, Duration.ZERO))
        .hasMessage("not a retry schedule: its longest backoff must be from its first (5 s) to SQS's longest visibility"
            + " timeout (43200 s), got 1 s.");
    assertThatThrownBy(() -> new RetrySchedule(second, SqsLimits.MAX_VISIBILITY.plusSeconds(1), 20, Duration.ZERO))
        .hasMessageContaining("got 43201 s");
    assertThatThrownBy(() -> new RetrySchedule(second, second, 51, Duration.ZERO))
        .hasMessage("not a retry schedule: its jitter must take off 0-50% at random, got 51%.");
    assertThatThrownBy(() -> new RetrySchedule(second, second, -1, Duration.ZERO)).hasMessageContaining("got -1%");
    assertThatThrownBy(() -> new RetrySchedule(second, second, 0, Duration.ofMillis(-1)))
        .hasMessage("not a retry schedule: its wait after a lock must not be negative, got -1 ms.");
    assertThatThrownBy(() -> new RetrySchedule(Duration.ZERO, second, 60, Duration.ofMillis(-1)))
        .as("every broken rule at once").hasMessageContaining("first backoff").hasMessageContaining("jitter")
        .hasMessageContaining("after a lock");
    assertThat(new RetrySchedule(second, SqsLimits.MAX_VISIBILITY, RetrySchedule.MAX_JITTER_PERCENT, Duration.ZERO)
        .longestBackoff()).as("both ends of every range are allowed").isEqualTo(SqsLimits.MAX_VISIBILITY);
  }

  @Test
  void aBudgetWhoseScheduleIsRefusedSaysSoInItsOwnWords() {
    assertThatThrownBy(() -> TimingBudget.builder().jitterPercent(60).build())
        .isInstanceOf(InconsistentTimingException.class)
        .hasMessageContaining("not a retry schedule: its jitter must take off 0-50% at random, got 60%.");
  }

  /** A visibility timeout out of a schedule's range is the budget's to refuse, naming the setting to change. */
  @Test
  void aVisibilityTimeoutNoScheduleTakesIsRefusedNamingTheSetting() {
    assertThatThrownBy(() -> TimingBudget.fromSettings(Map.of("functionTimeoutSeconds", "0")::get))
        .isInstanceOf(InconsistentTimingException.class)
        .hasMessageContaining("functionTimeoutSeconds is 0 s but Lambda only accepts");
    assertThatThrownBy(() -> TimingBudget.fromSettings(Map.of("visibilityTimeoutSeconds", "43201")::get))
        .isInstanceOf(InconsistentTimingException.class)
        .hasMessageContaining("visibilityTimeoutSeconds is 43201 s but SQS only accepts whole seconds up to 43200");
  }
}
