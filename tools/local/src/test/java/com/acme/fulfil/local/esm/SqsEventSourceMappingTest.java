package com.acme.fulfil.local.esm;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.EmbeddedAws;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueDepth;
import com.acme.fulfil.local.aws.QueueRef;
import com.acme.fulfil.local.aws.QueueSettings;
import com.acme.fulfil.local.lambda.InProcessFunction;
import com.acme.fulfil.local.lambda.InvokeResult;
import com.acme.fulfil.local.lambda.LambdaFunction;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The mapping's Lambda semantics, proven on what ElasticMQ holds afterwards. Each test owns its queue,
 * mapping and listener, and waits on SQS's timers, so the tests run side by side (this module's
 * junit-platform.properties).
 */
class SqsEventSourceMappingTest {
  private static final Duration NO_WINDOW = Duration.ZERO;
  private static final Duration LONG_VISIBILITY = Duration.ofSeconds(60);
  private static final AtomicInteger QUEUES = new AtomicInteger();

  private static EmbeddedAws aws;
  private static SqsClient sqs;
  private static OrdersStack stack;

  private final List<SqsEventSourceMapping> mappings = new ArrayList<>();
  private final RecordingListener listener = new RecordingListener();

  @BeforeAll
  static void startAws() {
    aws = EmbeddedAws.start();
    sqs = aws.connection().sqsClient();
    stack = new OrdersStack(sqs, aws.connection().dynamoDbClient(), aws.connection().secretsManagerClient());
  }

  @AfterAll
  static void stopAws() {
    sqs.close();
    aws.close();
  }

  @AfterEach
  void stopMappings() {
    mappings.forEach(SqsEventSourceMapping::close);
  }

  @Test
  void invocationThatOutlivesTheFunctionTimeoutIsAbandonedAndItsMessageComesBack() throws Exception {
    QueueRef queue = queue(Duration.ofSeconds(2));
    String id = send(queue, "slow").get("slow");
    AtomicInteger interrupted = new AtomicInteger();
    start(queue, settings(1, NO_WINDOW, 1, Duration.ofMillis(500)), (event, context) -> {
      if (receiveCount(event.getRecords().getFirst()) == 1) {
        try {
          Thread.sleep(Duration.ofSeconds(30));
        } catch (InterruptedException e) {
          interrupted.incrementAndGet();
        }
      }
      return new SQSBatchResponse(List.of());
    });

    Invocation first = listener.next();
    assertThat(first.outcome()).isEqualTo(Invocation.Outcome.TIMED_OUT);
    assertThat(first.deleted()).isEmpty();
    Invocation second = listener.next();
    assertThat(second.deliveries()).containsExactly(new Delivery(id, 2));
    assertThat(second.deleted()).containsExactly(id);
    assertThat(interrupted).hasValue(1);
    assertThat(QueueDepth.of(sqs, queue).total()).isZero();
  }

  @Test
  void successReturnedAfterTheTimeoutDeletesNothing() throws Exception {
    QueueRef queue = queue(LONG_VISIBILITY);
    send(queue, "stubborn");
    CountDownLatch returned = new CountDownLatch(1);
    start(queue, settings(1, NO_WINDOW, 1, Duration.ofMillis(300)), (event, context) -> {
      sleepIgnoringInterrupts(Duration.ofMillis(1200));
      returned.countDown();
      return new SQSBatchResponse(List.of());
    });

    assertThat(listener.next().outcome()).isEqualTo(Invocation.Outcome.TIMED_OUT);
    assertThat(returned.await(10, TimeUnit.SECONDS)).isTrue();
    closeMappings();
    assertThat(QueueDepth.of(sqs, queue)).isEqualTo(new QueueDepth(0, 1));
  }

  @Test
  void partialBatchResponseDeletesExactlyTheSuccessfulRecords() throws Exception {
    QueueRef queue = queue(Duration.ofSeconds(2));
    send(queue, "ok-1", "fail-1", "ok-2", "ok-3", "fail-2", "ok-4");
    start(queue, settings(10, Duration.ofSeconds(1), 1, Duration.ofSeconds(5)), (event, context) -> {
      List<SQSBatchResponse.BatchItemFailure> failures = event.getRecords().stream()
          .filter(r -> r.getBody().startsWith("fail"))
          .map(r -> new SQSBatchResponse.BatchItemFailure(r.getMessageId()))
          .toList();
      return new SQSBatchResponse(failures);
    });

    Invocation invocation = listener.next();
    closeMappings();
    assertThat(invocation.deliveries()).hasSize(6);
    assertThat(invocation.reportedFailures()).hasSize(2);
    assertThat(invocation.deleted()).hasSize(4).doesNotContainAnyElementsOf(invocation.reportedFailures());
    assertThat(bodiesLeftIn(queue)).containsExactlyInAnyOrder("fail-1", "fail-2");
  }

  @Test
  void failureNamingARecordOutsideTheBatchFailsTheWholeBatch() throws Exception {
    QueueRef queue = queue(Duration.ofSeconds(2));
    send(queue, "a", "b", "c");
    start(queue, settings(10, Duration.ofSeconds(1), 1, Duration.ofSeconds(5)),
        (event, context) -> new SQSBatchResponse(List.of(new SQSBatchResponse.BatchItemFailure("not-in-this-batch"))));

    Invocation invocation = listener.next();
    closeMappings();
    assertThat(invocation.outcome()).isEqualTo(Invocation.Outcome.INVALID_RESPONSE);
    assertThat(bodiesLeftIn(queue)).containsExactlyInAnyOrder("a", "b", "c");
  }

  /** Lambda's documented reading of a partial batch response, whatever produced the JSON. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "{\"batchItemFailures\":[{\"itemIdentifier\":null}]}",
      "{\"batchItemFailures\":[{\"itemIdentifier\":\"\"}]}",
      "{\"batchItemFailures\":[{\"itemidentifier\":\"%s\"}]}",
      "{\"batchItemFailures\":{\"itemIdentifier\":\"%s\"}}",
      "not json"})
  void answerThatNamesNoRecordProperlyFailsTheWholeBatch(String answer) throws Exception {
    QueueRef queue = queue(Duration.ofSeconds(2));
    String id = send(queue, "only").get("only");
    start(sqs, queue, settings(10, NO_WINDOW, 1, Duration.ofSeconds(5)),
        answering(answer.formatted(id)));

    Invocation invocation = listener.next();
    closeMappings();
    assertThat(invocation.outcome()).isEqualTo(Invocation.Outcome.INVALID_RESPONSE);
    assertThat(bodiesLeftIn(queue)).containsExactly("only");
  }

  @ParameterizedTest(name = "answer [{0}]")
  @ValueSource(strings = {"", "null", "{}", "{\"batchItemFailures\":[]}", "{\"batchItemFailures\":null}"})
  void answerWithoutFailuresDeletesTheWholeBatch(String answer) throws Exception {
    QueueRef queue = queue(Duration.ofSeconds(2));
    send(queue, "a", "b");
    start(sqs, queue, settings(10, Duration.ofSeconds(1), 1, Duration.ofSeconds(5)), answering(answer));

    Invocation invocation = listener.next();
    closeMappings();
    assertThat(invocation.outcome()).isEqualTo(Invocation.Outcome.RETURNED);
    assertThat(invocation.deleted()).hasSize(2);
    assertThat(QueueDepth.of(sqs, queue).total()).isZero();
  }

  /** A function that answers {@code payload} to every event. */
  private static LambdaFunction answering(String payload) {
    return new LambdaFunction() {
      @Override
      public InvokeResult invoke(byte[] event) {
        return new InvokeResult.Response(payload.getBytes(StandardCharsets.UTF_8));
      }

      @Override
      public void close() {}
    };
  }

  @Test
  void functionErrorDeletesNothingAndTheBatchComesBack() throws Exception {
    QueueRef queue = queue(Duration.ofSeconds(1));
    Map<String, String> ids = send(queue, "first-try-fails");
    start(queue, settings(1, NO_WINDOW, 1, Duration.ofSeconds(5)), (event, context) -> {
      if (receiveCount(event.getRecords().getFirst()) == 1) {
        throw new IllegalStateException("partner unreachable");
      }
      return new SQSBatchResponse(List.of());
    });

    Invocation failed = listener.next();
    assertThat(failed.outcome()).isEqualTo(Invocation.Outcome.FUNCTION_ERROR);
    assertThat(failed.deleted()).isEmpty();
    Invocation retried = listener.next();
    assertThat(retried.deliveries()).containsExactly(new Delivery(ids.get("first-try-fails"), 2));
    assertThat(QueueDepth.of(sqs, queue).total()).isZero();
  }

  @Test
  void mappingNeverExtendsVisibilitySoASlowInvocationIsOvertakenByARedelivery() throws Exception {
    QueueRef queue = queue(Duration.ofSeconds(1));
    String id = send(queue, "slow-partner").get("slow-partner");
    Set<String> calls = ConcurrentHashMap.newKeySet();
    SqsClient recording = (SqsClient) Proxy.newProxyInstance(SqsClient.class.getClassLoader(),
        new Class<?>[] {SqsClient.class}, (proxy, method, args) -> {
          calls.add(method.getName());
          return method.invoke(sqs, args);
        });
    CountDownLatch redelivered = new CountDownLatch(1);
    start(recording, queue, settings(1, NO_WINDOW, 2, Duration.ofSeconds(10)), (event, context) -> {
      if (receiveCount(event.getRecords().getFirst()) == 1) {
        await(redelivered);
      } else {
        redelivered.countDown();
      }
      return new SQSBatchResponse(List.of());
    });

    // Both return at about the same moment; tell them apart by the receive each one got.
    List<Invocation> both = listener.next(2).stream()
        .sorted(Comparator.comparingInt(i -> i.deliveries().getFirst().receiveCount())).toList();
    Invocation original = both.get(0);
    Invocation redelivery = both.get(1);
    assertThat(redelivery.deliveries()).containsExactly(new Delivery(id, 2));
    assertThat(redelivery.deleted()).containsExactly(id);
    assertThat(original.deliveries()).containsExactly(new Delivery(id, 1));
    assertThat(original.staleReceipts()).containsExactly(id);
    assertThat(calls).containsOnly("receiveMessage", "deleteMessageBatch");
    assertThat(QueueDepth.of(sqs, queue).total()).isZero();
  }

  @Test
  void batchesNeverExceedTheBatchSize() throws Exception {
    QueueRef queue = queue(LONG_VISIBILITY);
    send(queue, "1", "2", "3", "4", "5", "6", "7");
    start(queue, settings(3, Duration.ofSeconds(1), 1, Duration.ofSeconds(5)), (event, context) -> new SQSBatchResponse(List.of()));

    List<Invocation> invocations = listener.next(3);
    assertThat(invocations).allSatisfy(i -> assertThat(i.deliveries().size()).isLessThanOrEqualTo(3));
    assertThat(invocations.stream().mapToInt(i -> i.deleted().size()).sum()).isEqualTo(7);
    assertThat(QueueDepth.of(sqs, queue).total()).isZero();
  }

  @Test
  void batchingWindowGathersRecordsSentAfterTheFirstArrived() throws Exception {
    QueueRef queue = queue(LONG_VISIBILITY);
    send(queue, "early");
    start(queue, settings(10, Duration.ofSeconds(3), 1, Duration.ofSeconds(5)), (event, context) -> new SQSBatchResponse(List.of()));
    waitUntil(() -> QueueDepth.of(sqs, queue).inFlight() == 1);
    send(queue, "late-1", "late-2");

    Invocation invocation = listener.next();
    assertThat(invocation.deliveries()).hasSize(3);
    assertThat(QueueDepth.of(sqs, queue).total()).isZero();
  }

  @Test
  void invocationsNeverExceedTheMaximumConcurrency() throws Exception {
    QueueRef queue = queue(LONG_VISIBILITY);
    List<String> bodies = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      bodies.add("order-" + i);
    }
    send(queue, bodies.toArray(String[]::new));
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    start(queue, settings(1, NO_WINDOW, 3, Duration.ofSeconds(5)), (event, context) -> {
      mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
      sleepIgnoringInterrupts(Duration.ofMillis(150));
      running.decrementAndGet();
      return new SQSBatchResponse(List.of());
    });

    listener.next(12);
    assertThat(mostAtOnce.get()).isBetween(1, 3);
    assertThat(QueueDepth.of(sqs, queue).total()).isZero();
  }

  private static EsmSettings settings(int batchSize, Duration window, int concurrency, Duration timeout) {
    return new EsmSettings(batchSize, window, concurrency, timeout, Duration.ofSeconds(1));
  }

  private QueueRef queue(Duration visibility) {
    return stack.createQueues("esm-test-" + QUEUES.incrementAndGet(),
        new QueueSettings(visibility, Duration.ofMinutes(5), Optional.empty())).source();
  }

  private void start(QueueRef queue, EsmSettings settings, RequestHandler<SQSEvent, SQSBatchResponse> function) {
    start(sqs, queue, settings, function);
  }

  private void start(SqsClient client, QueueRef queue, EsmSettings settings,
      RequestHandler<SQSEvent, SQSBatchResponse> handler) {
    start(client, queue, settings, new InProcessFunction(handler, new FunctionIdentity("test-function", queue.region()),
        settings.functionTimeout()));
  }

  private void start(SqsClient client, QueueRef queue, EsmSettings settings, LambdaFunction function) {
    SqsEventSourceMapping mapping = new SqsEventSourceMapping(client, queue, settings, "test-function", function, listener);
    mappings.add(mapping);
    mapping.start();
  }

  private void closeMappings() {
    mappings.forEach(SqsEventSourceMapping::close);
    mappings.clear();
  }

  /** Sends each body as its own message; returns body to message id. */
  private static Map<String, String> send(QueueRef queue, String... bodies) {
    Map<String, String> ids = new LinkedHashMap<>();
    for (String body : bodies) {
      ids.put(body, sqs.sendMessage(request -> request.queueUrl(queue.url()).messageBody(body)).messageId());
    }
    return ids;
  }

  /** Everything the queue still holds, once what is in flight has become visible again. */
  private static Set<String> bodiesLeftIn(QueueRef queue) {
    Set<String> bodies = new HashSet<>();
    int expected = QueueDepth.of(sqs, queue).total();
    long giveUp = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (bodies.size() < expected && System.nanoTime() < giveUp) {
      sqs.receiveMessage(request -> request.queueUrl(queue.url()).maxNumberOfMessages(10).waitTimeSeconds(1)
              .visibilityTimeout(60))
          .messages().stream().map(Message::body).forEach(bodies::add);
    }
    return bodies;
  }

  private static int receiveCount(SQSEvent.SQSMessage record) {
    return Integer.parseInt(record.getAttributes().get("ApproximateReceiveCount"));
  }

  private static void waitUntil(BooleanSupplier condition) throws InterruptedException {
    long giveUp = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition still false after 10 s").isLessThan(giveUp);
      Thread.sleep(20);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(20, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleepIgnoringInterrupts(Duration duration) {
    long end = System.nanoTime() + duration.toNanos();
    boolean interrupted = false;
    while (System.nanoTime() < end) {
      try {
        Thread.sleep(Duration.ofNanos(end - System.nanoTime()));
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
