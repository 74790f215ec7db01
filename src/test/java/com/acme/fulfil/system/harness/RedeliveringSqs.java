package com.acme.fulfil.system.harness;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageRequest;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;

/**
 * The event source mapping's SQS client, with SQS's at-least-once delivery made to happen on demand:
 * a message the predicate picks is made visible again the moment it is received, so another poller
 * receives it (a new receipt handle, receive count up by one) while the first invocation still works on
 * it. The duplicate is a real second delivery by the queue, not a copy made up here.
 */
public final class RedeliveringSqs implements SqsClient {
  private final SqsClient sqs;
  private final Predicate<Message> redeliverNow;
  private final AtomicInteger injected = new AtomicInteger();

  public RedeliveringSqs(SqsClient sqs, Predicate<Message> redeliverNow) {
    this.sqs = sqs;
    this.redeliverNow = redeliverNow;
  }

  /** Deliveries made visible again at once so far. */
  public int injected() {
    return injected.get();
  }

  @Override
  public ReceiveMessageResponse receiveMessage(ReceiveMessageRequest request) {
    ReceiveMessageResponse response = sqs.receiveMessage(request);
    for (Message message : response.messages()) {
      if (redeliverNow.test(message)) {
        sqs.changeMessageVisibility(r -> r.queueUrl(request.queueUrl()).receiptHandle(message.receiptHandle())
            .visibilityTimeout(0));
        injected.incrementAndGet();
      }
    }
    return response;
  }

  @Override
  public DeleteMessageBatchResponse deleteMessageBatch(DeleteMessageBatchRequest request) {
    return sqs.deleteMessageBatch(request);
  }

  @Override
  public String serviceName() {
    return sqs.serviceName();
  }

  /** The wrapped client belongs to whoever made it. */
  @Override
  public void close() {}
}
