package com.acme.fulfil.local.esm;

import com.acme.fulfil.contract.sqs.SqsLimits;
import com.acme.fulfil.local.aws.QueueRef;
import com.acme.fulfil.local.lambda.InvokeResult;
import com.acme.fulfil.local.lambda.LambdaFunction;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Lambda's SQS event source mapping, in process: it polls the queue, invokes the function with a batch
 * and acts on the result the way Lambda does, talking to SQS only through the SDK so it works against
 * any backend.
 *
 * <ul>
 *   <li>Long polling, up to {@code batchSize} records per invocation, gathered for at most the batching
 *       window after the first record arrives.
 *   <li>At most {@code maxConcurrency} invocations at once. A poller takes an invocation slot before it
 *       receives, so it never holds messages it cannot hand to the function (Lambda's maximum concurrency
 *       likewise stops polling rather than receiving and throttling).
 *   <li>The function returns: every record not named in {@code batchItemFailures} is deleted. An entry
 *       whose {@code itemIdentifier} is missing, null, empty or not a record of the batch, or an answer
 *       that is not JSON, fails the whole batch, as in Lambda.
 *   <li>The function throws or outlives its timeout: nothing is deleted; the records come back when
 *       their visibility timeout expires, and SQS counts the receive towards the redrive policy.
 *   <li>It never extends visibility. A record whose processing outlasts the queue's visibility timeout
 *       is handed out again while the first invocation still runs; that is the incident, reproduced.
 * </ul>
 *
 * <p>The function is invoked as Lambda invokes it: with the JSON event Lambda sends ({@link SqsEventJson}),
 * its answer read as JSON. The function enforces its own timeout (a local execution environment is
 * killed at it, as in Lambda) and reports it as {@code Sandbox.Timedout}; the mapping treats that, like
 * any function error, as a failure of the whole batch.
 */
public final class SqsEventSourceMapping implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(SqsEventSourceMapping.class.getName());
  /** Lambda starts five pollers for an SQS mapping; enough here, since receives take milliseconds. */
  static final int POLLERS = 5;
  /** What ElasticMQ answers to a delete whose receipt handle a later receive replaced. */
  static final String STALE_RECEIPT = "ReceiptHandleIsInvalid";
  private static final Duration SHORT_POLL_PAUSE = Duration.ofMillis(25);
  private static final Duration RECEIVE_ERROR_PAUSE = Duration.ofMillis(200);
  private static final Duration SLOT_WAIT = Duration.ofMillis(100);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SqsClient sqs;
  private final QueueRef queue;
  private final EsmSettings settings;
  private final String functionName;
  private final LambdaFunction function;
  private final MappingListener listener;
  private final SqsEventJson events;
  private final Semaphore invocationSlots;
  private final ExecutorService pollers;
  private final ExecutorService invocations;
  private final AtomicBoolean started = new AtomicBoolean();
  private volatile boolean polling;

  public SqsEventSourceMapping(SqsClient sqs, QueueRef queue, EsmSettings settings, String functionName,
      LambdaFunction function, MappingListener listener) {
    this.sqs = sqs;
    this.queue = queue;
    this.settings = settings;
    this.functionName = functionName;
    this.function = function;
    this.listener = listener;
    this.events = new SqsEventJson(queue);
    this.invocationSlots = new Semaphore(settings.maxConcurrency());
    String prefix = "esm-" + functionName;
    this.pollers = Executors.newFixedThreadPool(POLLERS, daemonThreads(prefix + "-poller-"));
    this.invocations = Executors.newCachedThreadPool(daemonThreads(prefix + "-invoke-"));
  }

  public EsmSettings settings() {
    return settings;
  }

  public QueueRef queue() {
    return queue;
  }

  public void start() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("the mapping for " + functionName + " was already started");
    }
    polling = true;
    for (int i = 0; i < POLLERS; i++) {
      pollers.execute(this::poll);
    }
  }

  /**
   * Stops polling and waits for the pollers to stop, as a mapping reaches Disabled: the invocations
   * already running go on to their end, as in Lambda, and this does not wait for them.
   */
  public void disable() throws InterruptedException {
    polling = false;
    pollers.shutdown();
    Duration pollerGrace = settings.pollWait().plus(settings.batchingWindow()).plusSeconds(5);
    pollers.awaitTermination(pollerGrace.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Stops polling, then waits for the invocations already running to return or time out (at most the
   * function timeout), as disabling a mapping lets its in-flight invocations finish.
   */
  @Override
  public void close() {
    try {
      disable();
      // Each running invocation holds a slot until it settles: owning them all means none is left.
      // An invocation may start a cold environment first (its init has a limit of its own).
      Duration invocationGrace = settings.functionTimeout().plusSeconds(70);
      if (invocationSlots.tryAcquire(settings.maxConcurrency(), invocationGrace.toMillis(), TimeUnit.MILLISECONDS)) {
        invocationSlots.release(settings.maxConcurrency());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      pollers.shutdownNow();
      invocations.shutdownNow();
    }
  }

  private void poll() {
    while (polling) {
      try {
        // Bounded, so a poller waiting for a slot notices a close() quickly.
        if (!invocationSlots.tryAcquire(SLOT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
          continue;
        }
      } catch (InterruptedException e) {
        return;
      }
      boolean handedOver = false;
      try {
        List<Message> batch = gatherBatch();
        if (!batch.isEmpty()) {
          invoke(batch);
          handedOver = true;
        }
      } catch (SdkException e) {
        if (polling) {
          LOG.log(System.Logger.Level.WARNING, "receive from " + queue.name() + " failed: " + e.getMessage());
          pause(RECEIVE_ERROR_PAUSE);
        }
      } finally {
        if (!handedOver) {
          invocationSlots.release();
        }
      }
    }
  }

  /**
   * One long poll; with a batching window, more receives until the batch is full or the window (counted
   * from the first record) has passed. A receive that fails after records were gathered ends the
   * gathering: the records already held are invoked rather than left to time out.
   */
  private List<Message> gatherBatch() {
    List<Message> batch = new ArrayList<>(receive(Math.min(SqsLimits.MAX_BATCH_ENTRIES, settings.batchSize()), settings.pollWait()));
    if (batch.isEmpty() || settings.batchingWindow().isZero()) {
      return batch;
    }
    long windowEnd = System.nanoTime() + settings.batchingWindow().toNanos();
    while (batch.size() < settings.batchSize()) {
      long remaining = windowEnd - System.nanoTime();
      if (remaining <= 0) {
        break;
      }
      // Whole seconds only: below one second of window left, short-poll so the window is kept exactly.
      Duration wait = Duration.ofSeconds(Math.min(settings.pollWait().toSeconds(), TimeUnit.NANOSECONDS.toSeconds(remaining)));
      List<Message> more;
      try {
        more = receive(Math.min(SqsLimits.MAX_BATCH_ENTRIES, settings.batchSize() - batch.size()), wait);
      } catch (SdkException e) {
        LOG.log(System.Logger.Level.WARNING, "receive from " + queue.name() + " failed while batching: " + e.getMessage());
        break;
      }
      batch.addAll(more);
      if (more.isEmpty() && wait.isZero()) {
        pause(Duration.ofNanos(Math.min(SHORT_POLL_PAUSE.toNanos(), remaining)));
      }
    }
    return batch;
  }

  private List<Message> receive(int max, Duration wait) {
    return sqs.receiveMessage(request -> request
        .queueUrl(queue.url())
        .maxNumberOfMessages(max)
        .waitTimeSeconds((int) wait.toSeconds())
        .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
        .messageAttributeNames("All")).messages();
  }

  private void invoke(List<Message> batch) {
    String requestId = UUID.randomUUID().toString();
    List<Delivery> deliveries = batch.stream().map(m -> new Delivery(m.messageId(), receiveCount(m))).toList();
    listener.received(requestId, deliveries);
    long startedNanos = System.nanoTime();
    byte[] event = events.toEvent(batch);
    invocations.execute(() -> {
      try {
        listener.settled(settle(requestId, batch, deliveries, startedNanos, function.invoke(event)));
      } finally {
        invocationSlots.release();
      }
    });
  }

  /** What the function's answer means for the batch's records, as Lambda reads it. */
  private Invocation settle(String requestId, List<Message> batch, List<Delivery> deliveries, long startedNanos,
      InvokeResult result) {
    Outcomes outcomes = new Outcomes(requestId, deliveries, startedNanos);
    return switch (result) {
      case InvokeResult.Failure failure when failure.errorType().equals("Sandbox.Timedout") ->
          outcomes.of(Invocation.Outcome.TIMED_OUT, failure.errorMessage());
      case InvokeResult.Failure failure ->
          outcomes.of(Invocation.Outcome.FUNCTION_ERROR, failure.errorType() + ": " + failure.errorMessage());
      case InvokeResult.Response response -> afterReturn(batch, response.payload(), outcomes);
    };
  }

  private Invocation afterReturn(List<Message> batch, byte[] payload, Outcomes outcomes) {
    Set<String> inBatch = new HashSet<>();
    batch.forEach(m -> inBatch.add(m.messageId()));
    JsonNode answer;
    try {
      answer = payload.length == 0 ? JSON.nullNode() : JSON.readTree(payload);
    } catch (IOException e) {
      return outcomes.of(Invocation.Outcome.INVALID_RESPONSE, "the function's answer is not JSON: " + e.getMessage());
    }
    JsonNode failures = answer.path("batchItemFailures");
    if (!failures.isMissingNode() && !failures.isNull() && !failures.isArray()) {
      return outcomes.of(Invocation.Outcome.INVALID_RESPONSE, "batchItemFailures is not a list: " + failures);
    }
    Set<String> failed = new HashSet<>();
    for (JsonNode failure : failures) {
      JsonNode id = failure.path("itemIdentifier");
      if (!id.isTextual() || id.asText().isEmpty() || !inBatch.contains(id.asText())) {
        return outcomes.of(Invocation.Outcome.INVALID_RESPONSE,
            "batchItemFailures names " + failure + ", which is not a record of this batch");
      }
      failed.add(id.asText());
    }
    List<Message> succeeded = batch.stream().filter(m -> !failed.contains(m.messageId())).toList();
    Set<String> deleted = new HashSet<>();
    Set<String> stale = new HashSet<>();
    delete(succeeded, deleted, stale);
    return outcomes.returned(deleted, failed, stale);
  }

  /** The invocation's record, stamped with how long it took. */
  private record Outcomes(String requestId, List<Delivery> deliveries, long startedNanos) {
    Invocation of(Invocation.Outcome outcome, String error) {
      return new Invocation(requestId, deliveries, outcome, Set.of(), Set.of(), Set.of(), Optional.of(error), elapsed());
    }

    Invocation returned(Set<String> deleted, Set<String> failed, Set<String> stale) {
      return new Invocation(requestId, deliveries, Invocation.Outcome.RETURNED, deleted, failed, stale, Optional.empty(),
          elapsed());
    }

    private Duration elapsed() {
      return Duration.ofNanos(System.nanoTime() - startedNanos);
    }
  }

  private void delete(List<Message> messages, Set<String> deleted, Set<String> stale) {
    for (int from = 0; from < messages.size(); from += SqsLimits.MAX_BATCH_ENTRIES) {
      List<Message> chunk = messages.subList(from, Math.min(messages.size(), from + SqsLimits.MAX_BATCH_ENTRIES));
      List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
      for (int i = 0; i < chunk.size(); i++) {
        entries.add(DeleteMessageBatchRequestEntry.builder()
            .id(Integer.toString(i)).receiptHandle(chunk.get(i).receiptHandle()).build());
      }
      DeleteMessageBatchResponse response;
      try {
        response = sqs.deleteMessageBatch(request -> request.queueUrl(queue.url()).entries(entries));
      } catch (SdkException e) {
        // Like a failed delete in Lambda: the messages come back after their visibility timeout.
        LOG.log(System.Logger.Level.WARNING, "delete from " + queue.name() + " failed: " + e.getMessage());
        continue;
      }
      response.successful().forEach(ok -> deleted.add(chunk.get(Integer.parseInt(ok.id())).messageId()));
      for (BatchResultErrorEntry failure : response.failed()) {
        String messageId = chunk.get(Integer.parseInt(failure.id())).messageId();
        if (STALE_RECEIPT.equals(failure.code())) {
          stale.add(messageId);
        } else {
          LOG.log(System.Logger.Level.WARNING, "delete of message " + messageId + " from " + queue.name()
              + " failed: " + failure.code() + " " + failure.message());
        }
      }
    }
  }

  private static int receiveCount(Message message) {
    String count = message.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT);
    return count == null ? 0 : Integer.parseInt(count);
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger counter = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, prefix + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
