package com.acme.fulfil.contract.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The timing rules against the event source mapping's clock: whatever set of numbers the check
 * accepts, no record's visibility window expires while the invocation holding it still runs (the
 * incident: SQS handing a message being booked to a second invocation), however the batch arrives,
 * however slow the partner is and even when the invocation hangs until Lambda's timeout.
 */
class TimingBudgetPropertyTest {

  /** The numbers a person might put in cdk.json, consistent or not; visibility derived or set. */
  record Settings(int functionTimeoutSeconds, int partnerWorstCaseMillis, int lookupTimeoutMillis, int marginMillis,
      int batchingWindowSeconds, int batchSize, int recordConcurrency, Optional<Integer> visibilityTimeoutSeconds) {

    Optional<TimingBudget> budget() {
      TimingBudget.Builder builder = TimingBudget.builder()
          .functionTimeout(Duration.ofSeconds(functionTimeoutSeconds))
          .partnerWorstCase(Duration.ofMillis(partnerWorstCaseMillis))
          .partnerLookupTimeout(Duration.ofMillis(lookupTimeoutMillis))
          .partnerDeadlineMargin(Duration.ofMillis(marginMillis))
          .batchingWindow(Duration.ofSeconds(batchingWindowSeconds))
          .batchSize(batchSize)
          .recordConcurrency(recordConcurrency);
      visibilityTimeoutSeconds.map(Duration::ofSeconds).ifPresent(builder::visibilityTimeout);
      try {
        return Optional.of(builder.build());
      } catch (InconsistentTimingException e) {
        return Optional.empty();
      }
    }
  }

  @Property(tries = 1000, maxDiscardRatio = 20)
  void anAcceptedBudgetNeverLetsAVisibilityWindowExpireUnderARunningInvocation(
      @ForAll("settings") Settings settings, @ForAll("timelines") Timeline timeline) {
    Optional<TimingBudget> accepted = settings.budget();
    Assume.that(accepted.isPresent());
    TimingBudget budget = accepted.get();
    EventSourceMappingModel.Batch batch = timeline.in(budget);

    Duration end = EventSourceMappingModel.run(budget, batch).end();

    for (Duration received : batch.receivedAt()) {
      assertThat(end).as("invocation end vs the visibility expiry of a record received at %s", received)
          .isLessThan(received.plus(budget.visibilityTimeout()));
    }
  }

  @Property(tries = 500, maxDiscardRatio = 20)
  void anAcceptedBudgetNeverStartsABookingThatCannotFinishBeforeTheTimeout(
      @ForAll("settings") Settings settings, @ForAll("timelines") Timeline timeline) {
    Optional<TimingBudget> accepted = settings.budget();
    Assume.that(accepted.isPresent());
    TimingBudget budget = accepted.get();
    EventSourceMappingModel.Batch batch = timeline.in(budget);
    Assume.that(!batch.hangs());

    Duration end = EventSourceMappingModel.run(budget, batch).end();

    assertThat(end).as("the handler returns before Lambda's timeout ends it")
        .isLessThan(batch.invokedAt().plus(budget.functionTimeout()));
  }

  /**
   * Review: two rounds at 576 s were accepted, but the second round's record, after a worst-case first
   * round, had too little time left once it had looked its order up: a partner within its worst case
   * made good orders retry (and, on their last receive, reach the DLQ).
   */
  @Property(tries = 1000, maxDiscardRatio = 20)
  void anAcceptedBudgetLetsEveryRecordOfABatchBookWhenThePartnerKeepsToItsWorstCase(
      @ForAll("settings") Settings settings, @ForAll("timelines") Timeline timeline) {
    Optional<TimingBudget> accepted = settings.budget();
    Assume.that(accepted.isPresent());
    TimingBudget budget = accepted.get();
    EventSourceMappingModel.Batch batch = timeline.withinWorstCase().in(budget);
    Assume.that(!batch.hangs());

    assertThat(EventSourceMappingModel.run(budget, batch).bookingsNotStarted())
        .as("records that found too little time to look up and book").isZero();
  }

  @Property(tries = 500)
  void aVisibilityShorterThanTheLongestInvocationIsAlwaysRefused(@ForAll("tooShortVisibility") Settings settings) {
    assertThat(settings.budget()).as("a budget whose visibility window can expire under its own invocation").isEmpty();
  }

  // Few drawn budgets are accepted and scale to whole seconds (a run saw 4 in 300): a discard ratio of 50
  // failed such a run for the draw, not for the property.
  @Property(tries = 300, maxDiscardRatio = 500)
  void scalingAnAcceptedBudgetDownKeepsItAccepted(@ForAll("settings") Settings settings,
      @ForAll("divisors") int divisor) {
    Optional<TimingBudget> accepted = settings.budget();
    Assume.that(accepted.isPresent());
    TimingBudget budget = accepted.get();
    Assume.that(wholeSecondsAfterDividing(budget, divisor));

    TimingBudget scaled = budget.scaledDown(divisor);

    assertThat(scaled.visibilityTimeout()).isEqualTo(budget.visibilityTimeout().dividedBy(divisor));
  }

  @Provide
  Arbitrary<Settings> settings() {
    // Derived most of the time, as the stack does by default; set by hand, sometimes far too short, otherwise.
    return settings((timeout, window) -> Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.just(Optional.<Integer>empty())),
        Tuple.of(2, Arbitraries.integers().between(0, 43_200).map(Optional::of))));
  }

  /** Visibility set by hand below the function timeout plus the batching window. */
  @Provide
  Arbitrary<Settings> tooShortVisibility() {
    return settings((timeout, window) -> Arbitraries.integers().between(0, timeout + window - 1).map(Optional::of));
  }

  private static Arbitrary<Settings> settings(BiFunction<Integer, Integer, Arbitrary<Optional<Integer>>> visibility) {
    Arbitrary<Integer> functionTimeouts = Arbitraries.integers().between(1, 900);
    Arbitrary<Integer> batchingWindows = Arbitraries.integers().between(0, 300);
    return Combinators.combine(functionTimeouts, batchingWindows).flatAs((timeout, window) -> Combinators.combine(
            Arbitraries.integers().between(1, timeout * 1000),
            Arbitraries.integers().between(1, timeout * 1000),
            Arbitraries.integers().between(1, timeout * 1000),
            Arbitraries.integers().between(1, 10),
            Arbitraries.integers().between(1, 10),
            visibility.apply(timeout, window))
        .as((worstCase, lookup, margin, batchSize, concurrency, visibilitySeconds) ->
            new Settings(timeout, worstCase, lookup, margin, window, batchSize, concurrency, visibilitySeconds)));
  }

  @Provide
  Arbitrary<Integer> divisors() {
    return Arbitraries.of(1, 2, 3, 5, 6, 10, 15, 30, 60);
  }

  /**
   * A batch's shape as fractions of the budget's own numbers, so any budget can take it: when each
   * record arrives within the batching window, when the mapping invokes, each lookup's latency as a
   * share of the lookup timeout (up to twice it: the partner is slow to answer), each partner latency as
   * a share of the worst case (up to twice it: the partner overruns), each recording time as a share of
   * the margin, and whether the invocation hangs.
   */
  record Timeline(List<Double> arrivals, double invokedAt, List<Double> lookups, List<Double> latencies,
      List<Double> recordings, boolean hangs) {
    EventSourceMappingModel.Batch in(TimingBudget budget) {
      int records = budget.batchSize();
      List<Duration> receivedAt = new ArrayList<>();
      receivedAt.add(Duration.ZERO);
      for (int i = 1; i < records; i++) {
        receivedAt.add(share(budget.batchingWindow(), arrivals.get(i)));
      }
      Duration lastArrival = receivedAt.stream().max(Duration::compareTo).orElseThrow();
      Duration invoked = lastArrival.plus(share(budget.batchingWindow().minus(lastArrival), invokedAt));
      List<Duration> lookup = new ArrayList<>();
      List<Duration> partner = new ArrayList<>();
      List<Duration> recording = new ArrayList<>();
      for (int i = 0; i < records; i++) {
        lookup.add(share(budget.partnerLookupTimeout(), lookups.get(i)));
        partner.add(share(budget.partnerWorstCase(), latencies.get(i)));
        // The margin exists to record the outcome: recording takes less than it.
        recording.add(share(budget.partnerDeadlineMargin(), recordings.get(i) * 0.99));
      }
      return new EventSourceMappingModel.Batch(receivedAt, invoked, lookup, partner, recording, hangs);
    }

    /** The same batch with a partner that keeps to its worst case, however long its lookups take. */
    Timeline withinWorstCase() {
      return new Timeline(arrivals, invokedAt, lookups, latencies.stream().map(l -> Math.min(l, 1.0)).toList(),
          recordings, hangs);
    }

    private static Duration share(Duration whole, double share) {
      return Duration.ofNanos((long) (whole.toNanos() * share));
    }
  }

  @Provide
  Arbitrary<Timeline> timelines() {
    Arbitrary<List<Double>> shares = Arbitraries.doubles().between(0, 1).list().ofSize(10);
    Arbitrary<List<Double>> overruns = Arbitraries.doubles().between(0, 2).list().ofSize(10);
    return Combinators.combine(shares, Arbitraries.doubles().between(0, 1), overruns, overruns, shares,
            Arbitraries.of(true, false))
        .as(Timeline::new);
  }

  private static boolean wholeSecondsAfterDividing(TimingBudget budget, int divisor) {
    return budget.functionTimeout().toSeconds() % divisor == 0
        && budget.visibilityTimeout().toSeconds() % divisor == 0
        && budget.batchingWindow().toSeconds() % divisor == 0
        && budget.sourceRetention().toSeconds() % divisor == 0
        && budget.dlqRetention().toSeconds() % divisor == 0;
  }
}
