package com.acme.fulfil.local.scenario;

import com.acme.fulfil.contract.timing.CutoverQuietTime;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.LocalBudget;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.esm.MappingListener;
import com.acme.fulfil.sim.SimulatedPartner;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The first deploy into the account that runs the old setup, rehearsed on a local backend with the steps
 * of docs/deploy.md ("First deploy: cutover from the old setup"): the old setup (the incident's queue
 * settings and function) takes orders on the source queue, then, with some of them in flight at the
 * partner and the rest queued,
 * <ol>
 *   <li>the old event source mapping is disabled (its running invocations go on);
 *   <li>nothing looks an order up for the {@link CutoverQuietTime}, counted from the disable;
 *   <li>the old function and its mapping go;
 *   <li>the source queue gets the stack's visibility, retention and redrive, and its DLQ is created;
 *   <li>this project's function and mapping start on the same queue.
 * </ol>
 * The new function's environments are started before the first step: locally they are whole JVM starts,
 * seconds that a deploy in AWS does not add at that point, and that would hide a cutover that starts the
 * new mapping too early.
 */
public final class CutoverRehearsal implements AutoCloseable {
  /** Which cutover is played. */
  public enum Sequence {
    /** The documented steps. */
    DOCUMENTED,
    /** The same steps without the quiet time: the new mapping starts as soon as the old one is disabled. */
    WITHOUT_THE_QUIET_TIME
  }

  /** When the steps happened, and the first moment the quiet time allows a lookup. */
  public record Timeline(Instant oldMappingDisabled, Instant lookupsSafeFrom, Instant newMappingStarted) {}

  private final SqsClient sqs;
  private final OrdersStack stack;
  private final SimulatedPartner partner;
  private final int oldInFlight;
  private final CutoverQuietTime quiet;
  private final LocalDeployment old;
  private final OrdersQueues adopted;
  private final LocalDeployment next;

  /**
   * Sets both up: the old setup on the source queue (named {@code name + "-orders-to-fulfil"}), and this
   * project's function, not yet polling.
   *
   * @param oldInFlight the old mapping's concurrency: the orders in flight at the partner when the cutover begins
   * @param listener hears this project's mapping
   */
  public CutoverRehearsal(String name, AwsConnection aws, SimulatedPartner partner, TimeScale scale, Path artifact,
      int oldInFlight, int maxConcurrency, MappingListener listener) {
    this.sqs = aws.sqsClient();
    this.stack = new OrdersStack(sqs, aws.dynamoDbClient(), aws.secretsManagerClient());
    this.partner = partner;
    this.oldInFlight = oldInFlight;
    String queueName = name + "-orders-to-fulfil";
    Deployment oldSetup = Deployment.oldSetup(name + "-old", queueName, scale, oldInFlight);
    TimingBudget local = LocalBudget.of(TimingBudget.defaults(), scale);
    this.quiet = CutoverQuietTime.of(oldSetup.queue().visibilityTimeout(), oldSetup.mapping().functionTimeout(), local);
    this.old = new LocalDeployment(oldSetup, aws, stack, sqs, partner, MappingListener.NONE, Map.of());
    Deployment fresh = Deployment.fulfilOrder(name, queueName, local, maxConcurrency, scale.pollWait(), artifact);
    this.adopted = stack.adoptionOf(old.queues().source(), fresh.queue());
    this.next = new LocalDeployment(fresh, aws, stack, sqs, partner, listener, Map.of(), line -> { }, adopted);
  }

  /**
   * Sends the orders to the old setup, waits until its mapping has {@code oldInFlight} of them at the
   * partner, then cuts over as {@code sequence} says. Returns once the new mapping polls.
   */
  public Timeline run(List<String> orderBodies, Sequence sequence) throws InterruptedException {
    orderBodies.forEach(body -> sqs.sendMessage(request -> request.queueUrl(adopted.source().url()).messageBody(body)));
    old.start();
    Duration oldPolls = old.deployment().mapping().functionTimeout().multipliedBy(2);
    if (partner.awaitPosts(oldInFlight, oldPolls) < oldInFlight) {
      throw new IllegalStateException("the old setup did not have " + oldInFlight + " orders at the partner within "
          + oldPolls);
    }
    Instant disabled = old.disableMapping();
    Instant safeFrom = quiet.lookupsSafeFrom(disabled);
    if (sequence == Sequence.DOCUMENTED) {
      old.close();
      Duration left = Duration.between(Instant.now(), safeFrom);
      if (left.isPositive()) {
        Thread.sleep(left);
      }
    }
    stack.adopt(adopted);
    next.start();
    return new Timeline(disabled, safeFrom, Instant.now());
  }

  /** The source queue (the old setup's, adopted) and the DLQ the cutover created. */
  public OrdersQueues queues() {
    return adopted;
  }

  public CutoverQuietTime quietTime() {
    return quiet;
  }

  @Override
  public void close() {
    next.close();
    old.close();
  }
}
