package com.acme.fulfil.local.scenario;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.OrdersStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Sends one order stream to several configurations at once, on the same schedule, lets each work
 * until every order is settled (deleted or dead-lettered) or the deadline passes, and reports. A
 * configuration without a DLQ cannot settle while it has poison: the run stops waiting for it once
 * the others have settled and the minimum run time has passed.
 * Running them side by side rather than one after the other halves the wall time: the work is
 * almost all waiting on the partner.
 */
public final class Scenario {
  private static final Duration TICK = Duration.ofMillis(250);

  private final AwsConnection aws;
  private final OrdersStack stack;
  private final SqsClient sqs;
  private final TimeScale scale;
  private final ScenarioSettings settings;
  private final TimingBudget budget;

  /** @param budget the stack's, in real time: every configuration is watched by the alarms it would deploy */
  public Scenario(AwsConnection aws, OrdersStack stack, SqsClient sqs, TimeScale scale, ScenarioSettings settings,
      TimingBudget budget) {
    this.aws = aws;
    this.stack = stack;
    this.sqs = sqs;
    this.scale = scale;
    this.settings = settings;
    this.budget = budget;
  }

  /** Runs the stream through every deployment; {@code progress} gets a line to show about four times a second. */
  public List<DeploymentReport> run(List<Deployment> deployments, Consumer<String> progress) throws InterruptedException {
    List<ScenarioOrder> orders = new OrderStream()
        .generate(settings.orders(), settings.poisonShare(), settings.rejectedShare(), settings.seed());
    List<DeploymentRun> runs = new ArrayList<>();
    try {
      for (Deployment deployment : deployments) {
        runs.add(new DeploymentRun(deployment, aws, stack, sqs, scale, settings.seed(), budget));
      }
      runs.forEach(DeploymentRun::watchDeadLetters);
      runs.forEach(DeploymentRun::start);
      long start = System.nanoTime();
      Thread sender = Thread.ofPlatform().name("checkout-service").daemon().start(() -> send(orders, runs, start));
      Map<DeploymentRun, Duration> settledAfter = new HashMap<>();
      while (true) {
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        for (DeploymentRun run : runs) {
          run.sampleAlarms(elapsed);
          run.redriveOnceDrained(settings.partnerDay(), elapsed);
          if (!settledAfter.containsKey(run) && run.settled(orders.size()) && run.redriveSettled(settings.partnerDay(), elapsed)) {
            settledAfter.put(run, elapsed);
          }
        }
        progress.accept(ProgressLine.format(runs, orders.size(), elapsed, scale));
        if (settledAfter.size() == runs.size() || elapsed.compareTo(settings.deadline()) >= 0
            || onlyTheUnsettleableRemain(runs, settledAfter.keySet()) && elapsed.compareTo(settings.minimumRun()) >= 0) {
          break;
        }
        Thread.sleep(TICK);
      }
      sender.join();
      runs.forEach(DeploymentRun::close);
      return runs.stream().map(run -> run.report(Optional.ofNullable(settledAfter.get(run)), settings.offeredOrdersPerHour(scale)))
          .toList();
    } finally {
      runs.forEach(DeploymentRun::close);
    }
  }

  private static boolean onlyTheUnsettleableRemain(List<DeploymentRun> runs, Set<DeploymentRun> settled) {
    List<DeploymentRun> withDlq = runs.stream().filter(run -> run.deployment().hasDeadLetterQueue()).toList();
    return !withDlq.isEmpty() && settled.containsAll(withDlq);
  }

  private void send(List<ScenarioOrder> orders, List<DeploymentRun> runs, long startNanos) {
    long spacing = orders.isEmpty() ? 0 : settings.sendSpread().toNanos() / orders.size();
    int eventAt = orders.size() / 5;
    for (int i = 0; i < orders.size(); i++) {
      sleepUntil(startNanos + i * spacing);
      if (i == eventAt) {
        runs.forEach(run -> run.partnerEvent(settings.partnerDay()));
      }
      ScenarioOrder order = orders.get(i);
      runs.forEach(run -> run.send(order));
    }
  }

  private static void sleepUntil(long nanos) {
    long wait = nanos - System.nanoTime();
    if (wait > 0) {
      try {
        Thread.sleep(Duration.ofNanos(wait));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
