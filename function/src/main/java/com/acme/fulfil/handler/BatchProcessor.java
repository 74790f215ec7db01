package com.acme.fulfil.handler;

import com.acme.fulfil.booking.CallWindow;
import com.acme.fulfil.fulfilment.OrderFulfilment;
import com.acme.fulfil.fulfilment.ReceivedMessage;
import com.acme.fulfil.fulfilment.RecordOutcome;
import com.acme.fulfil.observability.FunctionLogging;
import com.acme.fulfil.queue.DeadLetters;
import com.acme.fulfil.fulfilment.NextTry;
import com.acme.fulfil.queue.MessageReturns;
import com.acme.fulfil.queue.AcknowledgementPolicy;
import com.acme.fulfil.queue.AcknowledgementPolicy.Decision;
import com.acme.fulfil.queue.AcknowledgementPolicy.DeadLetterNow;
import com.acme.fulfil.queue.AcknowledgementPolicy.ReturnAfter;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.stream.IntStream;

/**
 * Runs a batch's records side by side, at most {@code recordConcurrency} at once (partner calls take minutes, so ten
 * in sequence could never fit one invocation), carries out what {@link AcknowledgementPolicy} decides for each, and
 * answers the partial batch response: exactly the records that stay on the queue.
 *
 * <p>Record threads are pooled and outlive the invocation: Powertools keeps its Jackson mapper per thread, so a
 * thread per record would build a mapper for every booking it stores. The pool grows rather than queues, so
 * invocations sharing a handler (locally, or with multi-concurrency) never wait for each other's records.
 */
final class BatchProcessor {
  private final OrderFulfilment fulfilment;
  private final AcknowledgementPolicy policy;
  private final MessageReturns returns;
  private final DeadLetters deadLetters;
  private final ExecutorService recordThreads =
      Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("record-", 1).factory());
  private final int recordConcurrency;

  BatchProcessor(OrderFulfilment fulfilment, AcknowledgementPolicy policy, DeadLetters deadLetters,
      MessageReturns returns, int recordConcurrency) {
    this.fulfilment = fulfilment;
    this.policy = policy;
    this.deadLetters = deadLetters;
    this.returns = returns;
    this.recordConcurrency = recordConcurrency;
  }

  /** {@code records} as the event holds them: null when an envelope came without any. */
  SQSBatchResponse process(List<SQSMessage> records, CallWindow window) {
    if (records == null) {
      return new SQSBatchResponse(List.of());
    }
    List<ReceivedMessage> messages = records.stream().map(ReceivedMessage::of).toList();
    List<Decision> decided = decideAll(messages, window);
    List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
    List<MessageReturns.Return> returning = new ArrayList<>();
    for (int i = 0; i < messages.size(); i++) {
      ReceivedMessage message = messages.get(i);
      Decision decision = decided.get(i) instanceof DeadLetterNow now
          ? policy.afterDeadLetter(message, deadLetters.send(message, now.rejected())) : decided.get(i);
      if (decision instanceof AcknowledgementPolicy.Return back) {
        failures.add(new SQSBatchResponse.BatchItemFailure(message.messageId()));
        if (back instanceof ReturnAfter after) {
          returning.add(new MessageReturns.Return(message, after.after()));
        }
      }
    }
    // Before the answer: once the mapping has it, this invocation may be frozen or gone. Each wait was
    // counted from the end of its record's try, and starts now, so a message returns later, never earlier.
    returns.returnAll(returning);
    return new SQSBatchResponse(failures);
  }

  private List<Decision> decideAll(List<ReceivedMessage> messages, CallWindow window) {
    Semaphore slots = new Semaphore(recordConcurrency);
    List<Future<Decision>> running = messages.stream()
        .map(message -> recordThreads.submit(FunctionLogging.carryingKeys(() -> tryOne(message, window, slots))))
        .toList();
    return IntStream.range(0, messages.size()).mapToObj(i -> decisionOf(messages.get(i), running.get(i))).toList();
  }

  private Decision tryOne(ReceivedMessage message, CallWindow window, Semaphore slots) throws InterruptedException {
    slots.acquire();
    try {
      return policy.decide(message, fulfilment.fulfil(message, window));
    } finally {
      slots.release();
    }
  }

  private Decision decisionOf(ReceivedMessage message, Future<Decision> result) {
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return queueTimeout(message, "invocation interrupted before the record finished");
    } catch (ExecutionException e) {
      return queueTimeout(message, "record failed unexpectedly: " + e.getCause());
    }
  }

  private Decision queueTimeout(ReceivedMessage message, String reason) {
    return policy.decide(message, new RecordOutcome.Retry(reason, new NextTry.QueueTimeout()));
  }
}
