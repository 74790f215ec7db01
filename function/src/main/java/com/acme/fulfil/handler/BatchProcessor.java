package com.acme.fulfil.handler;

import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.booking.CallWindow;
import com.acme.fulfil.fulfilment.OrderFulfilment;
import com.acme.fulfil.fulfilment.RecordOutcome;
import com.acme.fulfil.observability.FulfilmentMetrics;
import com.acme.fulfil.observability.FunctionLogging;
import com.acme.fulfil.queue.DeadLetters;
import com.acme.fulfil.fulfilment.NextTry;
import com.acme.fulfil.queue.MessageReturns;
import com.acme.fulfil.queue.RetryWaits;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Runs a batch's records side by side, at most {@code recordConcurrency} at once (partner calls take minutes, so ten
 * in sequence could never fit one invocation), and answers the partial batch response: exactly the failed records.
 * A record that can never succeed goes to the DLQ and counts as done; if that send fails, it is failed and visible
 * again at once: its next receive sends it again (a partner's rejection without asking the partner again, {@link
 * DeadLetters}), and the redrive policy moves it after its last. Every other failed record returns when its try said
 * ({@link RetryWaits}).
 *
 * <p>Record threads are pooled and outlive the invocation: Powertools keeps its Jackson mapper per thread, so a
 * thread per record would build a mapper for every booking it stores. The pool grows rather than queues, so
 * invocations sharing a handler (locally, or with multi-concurrency) never wait for each other's records.
 */
final class BatchProcessor {
  private final OrderFulfilment fulfilment;
  private final RetryWaits waits;
  private final MessageReturns returns;
  private final DeadLetters deadLetters;
  private final FulfilmentMetrics metrics;
  private final int maxReceiveCount;
  private final ExecutorService recordThreads =
      Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("record-", 1).factory());
  private final int recordConcurrency;

  BatchProcessor(OrderFulfilment fulfilment, DeadLetters deadLetters, RetryWaits waits, MessageReturns returns,
      int recordConcurrency, FulfilmentMetrics metrics, int maxReceiveCount) {
    this.fulfilment = fulfilment;
    this.deadLetters = deadLetters;
    this.waits = waits;
    this.returns = returns;
    this.recordConcurrency = recordConcurrency;
    this.metrics = metrics;
    this.maxReceiveCount = maxReceiveCount;
  }

  /** {@code records} as the event holds them: null when an envelope came without any. */
  SQSBatchResponse process(List<SQSMessage> records, CallWindow window) {
    if (records == null) {
      return new SQSBatchResponse(List.of());
    }
    List<Tried> tried = fulfilAll(records, window);
    List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
    List<MessageReturns.Return> returning = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      RecordOutcome outcome = tried.get(i).outcome();
      SQSMessage record = records.get(i);
      if (outcome instanceof RecordOutcome.Rejected rejection && deadLetters.send(record, rejection)) {
        metrics.count(MetricNames.DEAD_LETTERED); // the DLQ alarm reads this count
        continue; // in the DLQ with its reason: the mapping deletes it from the source
      }
      if (outcome.failed()) {
        if (OrderFulfilment.receiveCount(record) >= maxReceiveCount) {
          // No receive is left: SQS moves the message to the DLQ instead of handing it out again.
          metrics.count(MetricNames.DEAD_LETTERED);
        }
        failures.add(new SQSBatchResponse.BatchItemFailure(record.getMessageId()));
        Optional<Duration> wait =
            outcome instanceof RecordOutcome.Rejected ? waits.waitFor(record, outcome) : tried.get(i).returnAfter();
        wait.ifPresent(w -> returning.add(new MessageReturns.Return(record, w)));
      }
    }
    // Before the answer: once the mapping has it, this invocation may be frozen or gone. Each wait was
    // counted from the end of its record's try, and starts now, so a message returns later, never earlier.
    returns.returnAll(returning);
    return new SQSBatchResponse(failures);
  }

  /** Decided in the record's own thread, whose log lines carry its order id: on-call finds the next try there. */
  private record Tried(RecordOutcome outcome, Optional<Duration> returnAfter) {}

  private List<Tried> fulfilAll(List<SQSMessage> records, CallWindow window) {
    Semaphore slots = new Semaphore(recordConcurrency);
    List<Future<Tried>> running = records.stream()
        .map(record -> recordThreads.submit(FunctionLogging.carryingKeys(() -> tryOne(record, window, slots))))
        .toList();
    return running.stream().map(BatchProcessor::triedOf).toList();
  }

  private Tried tryOne(SQSMessage record, CallWindow window, Semaphore slots) throws InterruptedException {
    slots.acquire();
    try {
      RecordOutcome outcome = fulfilment.fulfil(record, window);
      return new Tried(outcome,
          outcome instanceof RecordOutcome.Rejected ? Optional.empty() : waits.announce(record, outcome));
    } finally {
      slots.release();
    }
  }

  private static Tried triedOf(Future<Tried> result) {
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return queueTimeout("invocation interrupted before the record finished");
    } catch (ExecutionException e) {
      return queueTimeout("record failed unexpectedly: " + e.getCause());
    }
  }

  private static Tried queueTimeout(String reason) {
    return new Tried(new RecordOutcome.Retry(reason, new NextTry.QueueTimeout()), Optional.empty());
  }
}
