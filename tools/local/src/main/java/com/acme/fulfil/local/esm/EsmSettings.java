package com.acme.fulfil.local.esm;

import com.acme.fulfil.contract.timing.TimingBudget;
import java.time.Duration;
import java.util.Objects;

/**
 * The event source mapping's knobs and the function timeout it enforces: what {@code
 * aws lambda create-event-source-mapping} and the function configuration say, plus the poll wait.
 *
 * @param batchSize most records per invocation (1-10 here: the function's timing rules assume at most ten)
 * @param batchingWindow how long a poller keeps gathering after the first record before invoking
 * @param maxConcurrency the mapping's maximum concurrency: invocations running at once
 * @param functionTimeout the function's timeout; an invocation that outlives it is abandoned
 * @param pollWait the ReceiveMessage long-poll wait. Lambda's pollers wait 20 s; it is not a timing
 *     rule of the design, only how quickly an idle poller notices a message, so a time-scaled run
 *     shrinks it like everything else (to SQS's whole-second minimum of 1 s).
 */
public record EsmSettings(int batchSize, Duration batchingWindow, int maxConcurrency, Duration functionTimeout,
    Duration pollWait) {

  /** Lambda's pollers long-poll for 20 s, the SQS maximum. */
  public static final Duration LAMBDA_POLL_WAIT = Duration.ofSeconds(20);
  static final int MAX_BATCH_SIZE = 10;

  public EsmSettings {
    Objects.requireNonNull(batchingWindow, "batchingWindow");
    Objects.requireNonNull(functionTimeout, "functionTimeout");
    Objects.requireNonNull(pollWait, "pollWait");
    if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
      throw new IllegalArgumentException("batchSize is " + batchSize + " but must be from 1 to " + MAX_BATCH_SIZE + ".");
    }
    if (batchingWindow.isNegative() || batchingWindow.compareTo(Duration.ofSeconds(300)) > 0) {
      throw new IllegalArgumentException("batchingWindow is " + batchingWindow + " but Lambda accepts 0 to 300 s.");
    }
    // Lambda's floor is 2; the tests need exactly 1 to prove the bound, and it breaks nothing here.
    if (maxConcurrency < 1 || maxConcurrency > 1000) {
      throw new IllegalArgumentException("maxConcurrency is " + maxConcurrency + " but must be from 1 to 1000.");
    }
    if (!functionTimeout.isPositive()) {
      throw new IllegalArgumentException("functionTimeout must be positive, got " + functionTimeout + ".");
    }
    if (pollWait.getNano() != 0 || pollWait.isNegative() || pollWait.compareTo(LAMBDA_POLL_WAIT) > 0) {
      throw new IllegalArgumentException("pollWait is " + pollWait + " but SQS accepts whole seconds from 0 to 20.");
    }
  }

  /** The mapping the CDK stack declares for this budget (already time-scaled if the run is). */
  public static EsmSettings from(TimingBudget budget, int maxConcurrency, Duration pollWait) {
    return new EsmSettings(budget.batchSize(), budget.batchingWindow(), maxConcurrency, budget.functionTimeout(),
        pollWait);
  }
}
