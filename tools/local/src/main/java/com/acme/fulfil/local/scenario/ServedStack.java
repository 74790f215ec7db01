package com.acme.fulfil.local.scenario;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.sim.SimulatedPartner;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The local stack with this project's configuration as {@code ./run-local --serve} runs it for a person: the
 * function behind its mapping, and the stack's alarms played on it as it runs, every page told as it fires
 * and as it clears. The runbook's drill test runs the same.
 */
public final class ServedStack implements AutoCloseable {
  /** How often the alarms' inputs are sampled and the alarms evaluated: several times in the shortest scaled period. */
  private static final Duration TICK = Duration.ofMillis(500);

  private final AwsConnection aws;
  private final DeploymentRun run;
  private final LivePages pages;
  private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "serve-alarms");
    thread.setDaemon(true);
    return thread;
  });

  /**
   * @param budget the stack's, in real time: the alarms' thresholds come from it
   * @param pages told each page as it fires and clears
   */
  public ServedStack(Deployment deployment, AwsConnection aws, OrdersStack stack, SqsClient sqs, TimeScale scale, long seed,
      TimingBudget budget, Consumer<PageEvent> pages) {
    this.aws = aws;
    this.run = new DeploymentRun(deployment, aws, stack, sqs, scale, seed, budget);
    this.pages = new LivePages(run::alarmOutcomes, pages);
  }

  public void start() {
    run.start();
    long started = System.nanoTime();
    sampler.scheduleAtFixedRate(() -> {
      // An exception would end the schedule, and with it every later page, without a word.
      try {
        run.sampleAlarms(Duration.ofNanos(System.nanoTime() - started));
        pages.evaluate();
      } catch (RuntimeException e) {
        System.err.println("--serve could not sample the alarms this time: " + e);
      }
    }, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The variables that point docs/runbook.md's commands at this stack. */
  public RunbookEnvironment environment() {
    return new RunbookEnvironment(aws, run.queues().source(), run.queues().deadLetter().orElseThrow(), run.table().orElseThrow(),
        run.secretId(), run.partnerUrl(), run.functionName(), run.deployment().budget().orElseThrow(),
        run.deployment().mapping().maxConcurrency());
  }

  /** The simulated partner, for a test to read its bookings. */
  public SimulatedPartner partner() {
    return run.partner();
  }

  /** How often the mapping has handed out the message so far. */
  public int receives(String messageId) {
    return run.receives(messageId);
  }

  DeploymentRun run() {
    return run;
  }

  @Override
  public void close() {
    sampler.shutdownNow();
    try {
      sampler.awaitTermination(TICK.toMillis() * 4, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    run.close();
  }
}
