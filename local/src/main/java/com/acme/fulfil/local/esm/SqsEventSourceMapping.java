package com.acme.fulfil.local.esm;

import com.acme.fulfil.local.aws.QueueRef;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
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
 *   <li>The function returns: every record not named in {@code batchItemFailures} is deleted. A failure
 *       entry that names no record of the batch fails the whole batch, as in Lambda.
 *   <li>The function throws or outlives its timeout: nothing is deleted; the records come back when
 *       their visibility timeout expires, and SQS counts the receive towards the redrive policy.
 *   <li>It never extends visibility. A record whose processing outlasts the queue's visibility timeout
 *       is handed out again while the first invocation still runs; that is the incident, reproduced.
 * </ul>
 *
 * <p>One function instance serves every invocation, concurrently, as one Lambda sandbox per
 * concurrent invocation would share the handler's static wiring (Powertools keeps its idempotency
 * configuration in a static, so there can be one handler per JVM anyway).
 *
 * <p>The function timeout differs from Lambda in one way: Lambda freezes and then discards the sandbox
 * of an invocation that times out, cutting its partner call wherever it is. A JVM cannot kill a thread,
 * so here the invocation is abandoned: its thread is interrupted, its messages are not deleted, and
 * whatever it still returns is ignored. Work it does after the timeout (a partner call that completes
 * anyway) still happens, which is also what the partner sees from a killed Lambda whose request had
 * already been sent.
 */
public final class SqsEventSourceMapping implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(SqsEventSourceMapping.class.getName());
  /** Lambda starts five pollers for an SQS mapping; enough here, since receives take milliseconds. */
  static final int POLLERS = 5;
  /** What ElasticMQ answers to a delete whose receipt handle a later receive replaced. */
  static final String STALE_RECEIPT = "ReceiptHandleIsInvalid";
  private static final int SQS_BATCH_LIMIT = 10;
  private static final Duration SHORT_POLL_PAUSE = Duration.ofMillis(25);
  private static final Duration RECEIVE_ERROR_PAUSE = Duration.ofMillis(200);
  private static final Duration SLOT_WAIT = Duration.ofMillis(100);

  private final SqsClient sqs;
  private final QueueRef queue;
  private final EsmSettings settings;
  private final FunctionIdentity identity;
  private final RequestHandler<SQSEvent, SQSBatchResponse> function;
  private final MappingListener listener;
  private final SqsEventTranslator translator;
  private final Semaphore invocationSlots;
  private final ExecutorService pollers;
  private final ExecutorService invocations;
  private final ScheduledExecutorService timeouts;
  private final AtomicBoolean started = new AtomicBoolean();
  private volatile boolean polling;

  public SqsEventSourceMapping(SqsClient sqs, QueueRef queue, EsmSettings settings, FunctionIdentity identity,
      RequestHandler<SQSEvent, SQSBatchResponse> function, MappingListener listener) {
    this.sqs = sqs;
    this.queue = queue;
    this.settings = settings;
    this.identity = identity;
    this.function = function;
    this.listener = listener;
    this.translator = new SqsEventTranslator(queue);
    this.invocationSlots = new Semaphore(settings.maxConcurrency());
    String prefix = "esm-" + identity.name();
    this.pollers = Executors.newFixedThreadPool(POLLERS, daemonThreads(prefix + "-poller-"));
    // Unbounded on purpose: an abandoned invocation may keep its thread after giving back its slot.
    this.invocations = Executors.newCachedThreadPool(daemonThreads(prefix + "-invoke-"));
    this.timeouts = Executors.newSingleThreadScheduledExecutor(daemonThreads(prefix + "-timeout-"));
  }

  public EsmSettings settings() {
    return settings;
  }

  public QueueRef queue() {
    return queue;
  }

  public void start() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("the mapping for " + identity.name() + " was already started");
    }
    polling = true;
    for (int i = 0; i < POLLERS; i++) {
      pollers.execute(this::poll);
    }
  }

  /**
   * Stops polling, then waits for the invocations already running to return or time out (at most the
   * function timeout), as disabling a mapping lets its in-flight invocations finish.
   */
  @Override
  public void close() {
    polling = false;
    pollers.shutdown();
    try {
      Duration pollerGrace = settings.pollWait().plus(settings.batchingWindow()).plusSeconds(5);
      pollers.awaitTermination(pollerGrace.toMillis(), TimeUnit.MILLISECONDS);
      // Each running invocation holds a slot until it settles: owning them all means none is left.
      Duration invocationGrace = settings.functionTimeout().plusSeconds(5);
      if (invocationSlots.tryAcquire(settings.maxConcurrency(), invocationGrace.toMillis(), TimeUnit.MILLISECONDS)) {
        invocationSlots.release(settings.maxConcurrency());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      pollers.shutdownNow();
      invocations.shutdownNow();
      timeouts.shutdownNow();
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
    List<Message> batch = new ArrayList<>(receive(Math.min(SQS_BATCH_LIMIT, settings.batchSize()), settings.pollWait()));
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
        more = receive(Math.min(SQS_BATCH_LIMIT, settings.batchSize() - batch.size()), wait);
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
    long timeoutNanos = settings.functionTimeout().toNanos();
    Run run = new Run(requestId, batch, deliveries, startedNanos);
    LocalLambdaContext context = new LocalLambdaContext(identity, requestId, startedNanos + timeoutNanos);
    SQSEvent event = translator.toEvent(batch);
    run.future = invocations.submit(() -> run.execute(event, context));
    timeouts.schedule(run::abandon, timeoutNanos, TimeUnit.NANOSECONDS);
  }

  /** One invocation: whichever comes first, its return or its timeout, decides what happens to its records. */
  private final class Run {
    private final String requestId;
    private final List<Message> batch;
    private final List<Delivery> deliveries;
    private final long startedNanos;
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile Future<?> future;

    Run(String requestId, List<Message> batch, List<Delivery> deliveries, long startedNanos) {
      this.requestId = requestId;
      this.batch = batch;
      this.deliveries = deliveries;
      this.startedNanos = startedNanos;
    }

    void execute(SQSEvent event, LocalLambdaContext context) {
      SQSBatchResponse response = null;
      Throwable error = null;
      try {
        response = function.handleRequest(event, context);
      } catch (Throwable t) {
        error = t;
      }
      if (!settled.compareAndSet(false, true)) {
        return; // already abandoned at the timeout: Lambda would have discarded this result with the sandbox
      }
      try {
        listener.settled(error != null
            ? outcome(Invocation.Outcome.FUNCTION_ERROR, Set.of(), Set.of(), Set.of(), Optional.of(describe(error)))
            : afterReturn(response));
      } finally {
        invocationSlots.release();
      }
    }

    void abandon() {
      if (!settled.compareAndSet(false, true)) {
        return;
      }
      try {
        future.cancel(true);
        listener.settled(outcome(Invocation.Outcome.TIMED_OUT, Set.of(), Set.of(), Set.of(),
            Optional.of("Task timed out after " + settings.functionTimeout().toMillis() + " ms")));
      } finally {
        invocationSlots.release();
      }
    }

    private Invocation afterReturn(SQSBatchResponse response) {
      Set<String> inBatch = new HashSet<>();
      batch.forEach(m -> inBatch.add(m.messageId()));
      Set<String> failed = new HashSet<>();
      List<SQSBatchResponse.BatchItemFailure> failures =
          response == null || response.getBatchItemFailures() == null ? List.of() : response.getBatchItemFailures();
      for (SQSBatchResponse.BatchItemFailure failure : failures) {
        String id = failure == null ? null : failure.getItemIdentifier();
        if (id == null || !inBatch.contains(id)) {
          return outcome(Invocation.Outcome.INVALID_RESPONSE, Set.of(), Set.of(), Set.of(),
              Optional.of("batchItemFailures names '" + id + "', which is not a record of this batch"));
        }
        failed.add(id);
      }
      List<Message> succeeded = batch.stream().filter(m -> !failed.contains(m.messageId())).toList();
      Set<String> deleted = new HashSet<>();
      Set<String> stale = new HashSet<>();
      delete(succeeded, deleted, stale);
      return outcome(Invocation.Outcome.RETURNED, deleted, failed, stale, Optional.empty());
    }

    private Invocation outcome(Invocation.Outcome outcome, Set<String> deleted, Set<String> failed, Set<String> stale,
        Optional<String> error) {
      return new Invocation(requestId, deliveries, outcome, deleted, failed, stale, error,
          Duration.ofNanos(System.nanoTime() - startedNanos));
    }
  }

  private void delete(List<Message> messages, Set<String> deleted, Set<String> stale) {
    for (int from = 0; from < messages.size(); from += SQS_BATCH_LIMIT) {
      List<Message> chunk = messages.subList(from, Math.min(messages.size(), from + SQS_BATCH_LIMIT));
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

  private static String describe(Throwable error) {
    return error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
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
