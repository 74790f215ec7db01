package com.acme.fulfil.system.harness;

import com.acme.fulfil.contract.timing.TimingBudget;
import java.time.Duration;

/** Timing budgets in local time that the tests deploy with. Each is accepted by the same rules as the CDK stack's. */
public final class TestBudgets {
  private TestBudgets() {}

  /**
   * For tests whose point is not the partner's latency: a 2 s function, a partner whose contract lets
   * it book late within 1 s and whose slowest answer the budget absorbs is 0.7 s, a 0.6 s lookup and a
   * 0.5 s margin, hence a 12 s visibility timeout (6 x 2 s); failed tries return after 1 s doubling to
   * 12 s, for a retry horizon of at least 60 s (9 receives). Every booking is preceded by a claim and a
   * lookup; the 0.8 s they may take before the booking must start leaves room for the CPU that ten
   * invocations on two cores share (at a 1 s worst case CI's tries found too little time to book).
   * The lookup answers in milliseconds on a quiet machine; 0.6 s is thirty times that on one whose
   * cores are both busy (at 0.2 s, and at 0.4 s once the suite grew, a loaded machine's lookups timed out
   * and first tries became retries).
   */
  public static TimingBudget quick() {
    return quick(1);
  }

  /** {@link #quick()} with {@code batchSize} records per invocation, all processed at once. */
  public static TimingBudget quick(int batchSize) {
    return quick(batchSize, Duration.ofSeconds(1));
  }

  /**
   * {@link #quick(int)} for a partner whose contract lets it book up to {@code partnerContractMaximum}
   * after a request: a partner that books later than the budget says breaks the one promise the
   * function's late-booking hold rests on.
   */
  public static TimingBudget quick(int batchSize, Duration partnerContractMaximum) {
    return quickBuilder(partnerContractMaximum).batchSize(batchSize).build();
  }

  /** {@link #quick(int, Duration)}'s numbers, for a test that changes one of them (the retry schedule, say). */
  public static TimingBudget.Builder quickBuilder(Duration partnerContractMaximum) {
    return TimingBudget.builder()
        .partnerWorstCase(Duration.ofMillis(700))
        .partnerContractMaximum(partnerContractMaximum)
        .clockSkewAllowance(Duration.ofMillis(100))
        .partnerLookupTimeout(Duration.ofMillis(600))
        .partnerDeadlineMargin(Duration.ofMillis(500))
        .functionTimeout(Duration.ofSeconds(2))
        .firstBackoff(Duration.ofSeconds(1))
        .retryHorizon(Duration.ofSeconds(60));
  }
}
