package com.acme.fulfil.handler;

import com.acme.fulfil.booking.CallWindow;
import com.acme.fulfil.fulfilment.OrderFulfilment;
import com.acme.fulfil.fulfilment.RecordOutcome;
import com.acme.fulfil.observability.FunctionLogging;
import com.acme.fulfil.queue.DeadLetters;
import com.acme.fulfil.fulfilment.NextTry;
import com.acme.fulfil.queue.MessageReturns;
import com.acme.fulfil.queue.RetryWaits;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Runs the records of a batch side by side (partner calls take minutes, so a batch of ten in sequence
 * could never fit one invocation), at most {@code recordConcurrency} at a time, and turns their
 * outcomes into the partial batch response: exactly the failed records, by message id. A record that
 * can never succeed goes straight to the DLQ and counts as done; if that send fails it is failed and
 * made visible again at once, for the redrive policy. Every other failed record's message is set to
 * return when its try said ({@link RetryWaits}).
 *
 * <p>Record threads are pooled and outlive the invocation: Powertools keeps its Jackson mapper per
 * thread, so a new thread for every record (as a virtual thread per task would be) built a new mapper
 * and looked Jackson's serializers up again for every booking it stored. The pool grows rather than
 * queues, so invocations sharing a handler (as they may locally, or in a multi-concurrency
 * environment) never wait for each other's records; each invocation runs at most
 * {@code recordConcurrency} of its own at once.
 */
final class BatchProcessor {
  private final OrderFulfilment fulfilment;
  private final RetryWaits waits;
  private final MessageReturns returns;
  private final DeadLetters deadLetters;
  private final ExecutorService recordThreads =
      Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("record-", 1).factory());
  private final int recordConcurrency;

  BatchProcessor(OrderFulfilment fulfilment, DeadLetters deadLetters, RetryWaits waits, MessageReturns returns,
      int recordConcurrency) {
    this.fulfilment = fulfilment;
    this.deadLetters = deadLetters;
    this.waits = waits;
    this.returns = returns;
    this.recordConcurrency = recordConcurrency;
  }

  /** {@code records} as the event holds them: null when an envelope came without any. */
  SQSBatchResponse process(List<SQSMessage> records, CallWindow window) {
    if (records == null) {
      return new SQSBatchResponse(List.of());
    }
    List<RecordOutcome> outcomes = fulfilAll(records, window);
    List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
    List<MessageReturns.Return> returning = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      RecordOutcome outcome = outcomes.get(i);
      SQSMessage record = records.get(i);
      if (outcome instanceof RecordOutcome.Rejected rejection && deadLetters.send(record, rejection)) {
        continue; // in the DLQ with its reason: the mapping deletes it from the source
      }
      if (outcome.failed()) {
        failures.add(new SQSBatchResponse.BatchItemFailure(record.getMessageId()));
        waits.waitFor(record, outcome).ifPresent(wait -> returning.add(new MessageReturns.Return(record, wait)));
      }
    }
    // Before the answer: once the mapping has it, this invocation may be frozen or gone. Each wait is
    // counted from now, after every record's try has ended, so none returns a message early.
    returns.returnAll(returning);
    return new SQSBatchResponse(failures);
  }

  private List<RecordOutcome> fulfilAll(List<SQSMessage> records, CallWindow window) {
    Semaphore slots = new Semaphore(recordConcurrency);
    List<Future<RecordOutcome>> running = new ArrayList<>();
    for (SQSMessage record : records) {
      Callable<RecordOutcome> task = () -> {
        slots.acquire();
        try {
          return fulfilment.fulfil(record, window);
        } finally {
          slots.release();
        }
      };
      running.add(recordThreads.submit(FunctionLogging.carryingKeys(task)));
    }
    List<RecordOutcome> outcomes = new ArrayList<>(records.size());
    for (Future<RecordOutcome> result : running) {
      outcomes.add(outcomeOf(result));
    }
    return outcomes;
  }

  private static RecordOutcome outcomeOf(Future<RecordOutcome> result) {
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new RecordOutcome.Retry("invocation interrupted before the record finished", new NextTry.QueueTimeout());
    } catch (ExecutionException e) {
      return new RecordOutcome.Retry("record failed unexpectedly: " + e.getCause(), new NextTry.QueueTimeout());
    }
  }
}
