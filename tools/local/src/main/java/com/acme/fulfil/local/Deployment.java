package com.acme.fulfil.local;

import com.acme.fulfil.contract.timing.Capacity;
import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.aws.QueueSettings;
import com.acme.fulfil.local.esm.EsmSettings;
import com.acme.fulfil.order.OrderMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One way of running fulfil-order: the queue as created, the event source mapping, which function
 * code runs behind it and the timing part of that function's environment. Already time-scaled.
 *
 * @param budget what the queue, the mapping and the function's timing were made from, in local time;
 *     none for the incident's, which no budget accepts
 */
public record Deployment(
    String name,
    String title,
    String queueName,
    QueueSettings queue,
    EsmSettings mapping,
    FunctionCode function,
    Map<String, String> timingEnvironment,
    Optional<TimingBudget> budget) {

  /** Which handler the mapping invokes. */
  public sealed interface FunctionCode {
    /** This project's function, from its deployable zip, as Lambda runs it. */
    record Packaged(Path artifact) implements FunctionCode {}

    /** The function the incident ran: book, and throw on anything but 201 (see IncidentHandler). */
    record Incident() implements FunctionCode {}
  }

  public Deployment {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(queueName, "queueName");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(mapping, "mapping");
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(budget, "budget");
    timingEnvironment = Map.copyOf(timingEnvironment);
  }

  /**
   * This project's configuration: everything from the same {@code TimingBudget} the CDK stack
   * deploys (6 x function timeout visibility, DLQ after maxReceiveCount, retention), scaled, with the
   * floor {@link LocalBudget} keeps for real work.
   */
  public static Deployment fulfilOrder(TimingBudget budget, TimeScale scale, int maxConcurrency, Path artifact) {
    return fulfilOrder("fixed", OrderMessage.QUEUE_NAME, LocalBudget.of(budget, scale), maxConcurrency,
        scale.pollWait(), artifact);
  }

  /**
   * This project's function and queue as they were before a failed try set its message's return: every
   * failure waits out the whole visibility timeout, and the redrive policy keeps an order for the same
   * retry horizon (five receives of 1,800 s, as deployed then). The same function, given the retry
   * schedule whose every wait is the visibility timeout, without jitter: a real setting of its
   * environment, so the two stand side by side on the same partner trouble.
   */
  public static Deployment waitingOutTheVisibilityTimeout(TimingBudget budget, TimeScale scale, int maxConcurrency,
      Path artifact) {
    TimingBudget everyWaitWhole = TimingBudget.builder().batchSize(budget.batchSize())
        .firstBackoff(budget.visibilityTimeout()).jitterPercent(0).build();
    return fulfilOrder("fixed-1800", "every-failure-waits-orders", "every failure waits 1,800 s",
        LocalBudget.of(everyWaitWhole, scale), maxConcurrency, scale.pollWait(), artifact);
  }

  /**
   * This project's configuration from a budget already in local time, under names of its own, so
   * several configurations (a test's, say, with its own budget) can stand side by side on one backend.
   */
  public static Deployment fulfilOrder(String name, String queueName, TimingBudget local, int maxConcurrency,
      Duration pollWait, Path artifact) {
    return fulfilOrder(name, queueName, "this project", local, maxConcurrency, pollWait, artifact);
  }

  private static Deployment fulfilOrder(String name, String queueName, String title, TimingBudget local,
      int maxConcurrency, Duration pollWait, Path artifact) {
    return new Deployment(name, title, queueName,
        new QueueSettings(local.visibilityTimeout(), local.sourceRetention(),
            Optional.of(new QueueSettings.Redrive(local.maxReceiveCount(), local.dlqRetention()))),
        EsmSettings.from(local, maxConcurrency, pollWait),
        new FunctionCode.Packaged(artifact),
        local.functionEnvironment(),
        Optional.of(local));
  }

  /**
   * The incident's mapping had no maximum concurrency: Lambda scales an SQS mapping up to the account's
   * concurrency, 1,000 by default, so a redelivered message finds a free invocation at once. The
   * incident's function runs in process here, so it can afford as many.
   */
  public static final int NO_MAXIMUM_CONCURRENCY = 1000;

  /**
   * The incident's configuration, as it was described, which no {@code TimingBudget} accepts: a
   * queue left on SQS's defaults (30 s visibility, 4 days' retention, no redrive policy, so no DLQ),
   * a 300 s function, batch size 1 and no batching window, no maximum concurrency, running the
   * incident's function.
   */
  public static Deployment incident(TimeScale scale) {
    return incident(scale, NO_MAXIMUM_CONCURRENCY);
  }

  /** The incident's configuration with its mapping capped at {@code maxConcurrency}, which the incident's was not. */
  public static Deployment incident(TimeScale scale, int maxConcurrency) {
    return oldSetup("incident", "incident-orders-to-fulfil", scale, maxConcurrency);
  }

  /**
   * The setup this project replaces, under names of its own: the incident's configuration (30 s
   * visibility, no DLQ, a 300 s function at batch size 1), as the first deploy finds it in the account.
   */
  public static Deployment oldSetup(String name, String queueName, TimeScale scale, int maxConcurrency) {
    Duration visibility = scale.toLocal(Duration.ofSeconds(30));
    Duration retention = scale.toLocal(Duration.ofDays(4));
    Duration functionTimeout = scale.toLocal(Duration.ofSeconds(300));
    return new Deployment(name, "the incident (30 s visibility, no DLQ)", queueName,
        new QueueSettings(visibility, retention, Optional.empty()),
        new EsmSettings(1, Duration.ZERO, maxConcurrency, functionTimeout, scale.pollWait()),
        new FunctionCode.Incident(),
        Map.of(),
        Optional.empty());
  }

  public boolean hasDeadLetterQueue() {
    return queue.redrive().isPresent();
  }

  /**
   * Real-world orders an hour this deployment books on a normal partner day, by the same rule as the
   * stack's ({@link Capacity}): its mapping's concurrency and batch, the function's record concurrency
   * (the incident's books one record at a time), the partner's typical time for a round of its batch.
   */
  public Capacity capacity() {
    int recordConcurrency = Integer.parseInt(timingEnvironment.getOrDefault(FunctionEnvironment.RECORD_CONCURRENCY, "1"));
    // Only the typical figure is reported for a local run; the contract's maximum bounds either function's call.
    return Capacity.onTypicalPartnerDays(mapping.maxConcurrency(), mapping.batchSize(), recordConcurrency,
        TimingBudget.PARTNER_CONTRACT_MAXIMUM);
  }
}
