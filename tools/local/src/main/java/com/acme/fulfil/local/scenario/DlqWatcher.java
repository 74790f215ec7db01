package com.acme.fulfil.local.scenario;

import com.acme.fulfil.contract.sqs.SqsLimits;
import com.acme.fulfil.local.aws.DeadLetter;
import com.acme.fulfil.local.aws.QueueRef;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Notes when each message arrives in the dead-letter queue, for the report's time-to-DLQ. It reads the
 * DLQ the way on-call would inspect it and leaves every message there, hidden for the rest of the run
 * so each is read once.
 */
final class DlqWatcher implements AutoCloseable {
  private static final Duration EVERY = Duration.ofMillis(200);

  private final SqsClient sqs;
  private final QueueRef dlq;
  private final Map<String, Instant> arrivals = new ConcurrentHashMap<>();
  /** The receipt of each message it hid, by message id: what lets it show them again for a redrive. */
  private final Map<String, String> hidden = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
    Thread thread = new Thread(task, "dlq-watcher");
    thread.setDaemon(true);
    return thread;
  });

  DlqWatcher(SqsClient sqs, QueueRef dlq) {
    this.sqs = sqs;
    this.dlq = dlq;
  }

  void start() {
    timer.scheduleWithFixedDelay(this::sweepQuietly, 0, EVERY.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Source message id to the moment the message (or the dead letter the function sent for it) was first seen in the DLQ. */
  Map<String, Instant> arrivals() {
    return Map.copyOf(arrivals);
  }

  /** Reads whatever arrived since the last sweep. */
  synchronized void sweep() {
    List<Message> batch;
    do {
      batch = sqs.receiveMessage(request -> request.queueUrl(dlq.url()).maxNumberOfMessages(10)
          .waitTimeSeconds(0).visibilityTimeout((int) SqsLimits.MAX_VISIBILITY.toSeconds()).messageAttributeNames("All")).messages();
      Instant now = Instant.now();
      batch.forEach(message -> {
        arrivals.putIfAbsent(DeadLetter.standsFor(message), now);
        hidden.put(message.messageId(), message.receiptHandle());
      });
    } while (!batch.isEmpty());
  }

  /**
   * Stops reading and shows every message it hid again, as on-call's DLQ has them: a redrive moves only
   * what is visible. What arrives after this is read by the sweep at the end of the run.
   */
  synchronized void release() {
    timer.shutdownNow();
    hidden.values().forEach(receipt ->
        sqs.changeMessageVisibility(request -> request.queueUrl(dlq.url()).receiptHandle(receipt).visibilityTimeout(0)));
    hidden.clear();
  }

  private void sweepQuietly() {
    try {
      sweep();
    } catch (SdkException e) {
      // the next sweep tries again; the final sweep at the end of the run is not quiet
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
