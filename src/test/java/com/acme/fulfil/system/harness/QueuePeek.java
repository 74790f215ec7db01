package com.acme.fulfil.system.harness;

import com.acme.fulfil.local.aws.DeadLetter;
import com.acme.fulfil.local.aws.QueueRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Reads everything a queue holds the way on-call inspects a DLQ (every attribute, every message
 * attribute) and leaves it there, visible, for the next look or a redrive.
 */
public final class QueuePeek {
  /** Long enough to read the whole queue once without seeing a message twice. */
  private static final int HOLD_SECONDS = 5;

  private final SqsClient sqs;
  private final QueueRef queue;

  public QueuePeek(SqsClient sqs, QueueRef queue) {
    this.sqs = sqs;
    this.queue = queue;
  }

  /**
   * The visible messages, by the id of the source message each stands for ({@link DeadLetter#standsFor}):
   * of two copies standing for one source message, one.
   */
  public Map<String, Message> messages() {
    Map<String, Message> byId = new LinkedHashMap<>();
    all().forEach(message -> byId.putIfAbsent(DeadLetter.standsFor(message), message));
    return byId;
  }

  /** Every visible message, copies too. */
  public List<Message> all() {
    List<Message> seen = new ArrayList<>();
    List<Message> batch;
    do {
      batch = sqs.receiveMessage(r -> r.queueUrl(queue.url()).maxNumberOfMessages(10).waitTimeSeconds(0)
          .visibilityTimeout(HOLD_SECONDS)
          .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
          .messageAttributeNames("All")).messages();
      seen.addAll(batch);
    } while (!batch.isEmpty());
    // Visible again at once. A reset SQS refuses (a handle a later receive replaced) costs the message
    // only the short hold.
    for (int from = 0; from < seen.size(); from += 10) {
      List<ChangeMessageVisibilityBatchRequestEntry> entries = new ArrayList<>();
      for (int i = from; i < Math.min(seen.size(), from + 10); i++) {
        entries.add(ChangeMessageVisibilityBatchRequestEntry.builder().id(Integer.toString(i))
            .receiptHandle(seen.get(i).receiptHandle()).visibilityTimeout(0).build());
      }
      sqs.changeMessageVisibilityBatch(r -> r.queueUrl(queue.url()).entries(entries));
    }
    return seen;
  }
}
