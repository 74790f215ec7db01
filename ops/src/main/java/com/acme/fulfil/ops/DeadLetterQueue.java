package com.acme.fulfil.ops;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.ReceiptHandleIsInvalidException;

/**
 * Reading the DLQ without consuming it: messages are received with a short hold and handed back
 * (visibility 0) once read, so a look changes nothing but their receive count, which a DLQ does not act on.
 */
final class DeadLetterQueue {
  /** Long enough to read the whole DLQ before any message comes round again in the same pass. */
  static final Duration HOLD = Duration.ofSeconds(60);

  private final SqsClient sqs;
  private final String url;

  private final Duration deployedRetention;

  /** @param deployedRetention the DLQ's retention in the budget, for an SQS that does not report its own */
  DeadLetterQueue(SqsClient sqs, String url, Duration deployedRetention) {
    this.sqs = sqs;
    this.url = url;
    this.deployedRetention = deployedRetention;
  }

  Duration retention() {
    String seconds = sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNames(QueueAttributeName.MESSAGE_RETENTION_PERIOD))
        .attributes().get(QueueAttributeName.MESSAGE_RETENTION_PERIOD);
    return seconds == null ? deployedRetention : Duration.ofSeconds(Long.parseLong(seconds));
  }

  /** Every message, read and handed back. */
  List<DeadLetter> readAll() {
    Duration retention = retention();
    List<Message> held = receiveAll();
    release(held);
    return held.stream().map(message -> DeadLetter.read(message, retention)).toList();
  }

  /**
   * Holds the messages whose id, or the id of the source message they stand for, is in {@code ids}, and
   * hands every other one back.
   */
  Map<String, DeadLetter> hold(Set<String> ids) {
    Duration retention = retention();
    Map<String, DeadLetter> wanted = new LinkedHashMap<>();
    List<Message> others = new ArrayList<>();
    for (Message message : receiveAll()) {
      DeadLetter letter = DeadLetter.read(message, retention);
      String id = ids.contains(letter.messageId()) ? letter.messageId() : letter.sourceMessageId();
      if (ids.contains(id) && !wanted.containsKey(id)) {
        wanted.put(id, letter);
      } else {
        others.add(message);
      }
    }
    release(others);
    return wanted;
  }

  /**
   * Deletes the message with the receipt handle it was read with. SQS deletes only with the newest
   * handle: a message received again since (after this hold ran out) may be refused, or accepted and
   * kept. False if SQS refused; true says only that it accepted.
   */
  boolean delete(DeadLetter letter) {
    try {
      sqs.deleteMessage(r -> r.queueUrl(url).receiptHandle(letter.message().receiptHandle()));
      return true;
    } catch (ReceiptHandleIsInvalidException e) {
      return false;
    }
  }

  private List<Message> receiveAll() {
    List<Message> received = new ArrayList<>();
    Set<String> seen = new java.util.HashSet<>();
    // SQS samples servers on a short poll: keep asking until two polls in a row bring nothing new.
    for (int emptyPolls = 0; emptyPolls < 2; ) {
      List<Message> batch = sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(0)
          .visibilityTimeout((int) HOLD.toSeconds())
          .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
          .messageAttributeNames("All")).messages();
      int fresh = 0;
      for (Message message : batch) {
        if (seen.add(message.messageId())) {
          received.add(message);
          fresh++;
        }
      }
      emptyPolls = fresh == 0 ? emptyPolls + 1 : 0;
    }
    return received;
  }

  /** Hands held messages back at once, for another reader (or a later run) to receive. */
  void handBack(java.util.Collection<DeadLetter> letters) {
    release(letters.stream().map(DeadLetter::message).toList());
  }

  private void release(List<Message> messages) {
    for (int from = 0; from < messages.size(); from += 10) {
      List<ChangeMessageVisibilityBatchRequestEntry> entries = new ArrayList<>();
      List<Message> slice = messages.subList(from, Math.min(from + 10, messages.size()));
      for (int i = 0; i < slice.size(); i++) {
        entries.add(ChangeMessageVisibilityBatchRequestEntry.builder().id(Integer.toString(i))
            .receiptHandle(slice.get(i).receiptHandle()).visibilityTimeout(0).build());
      }
      sqs.changeMessageVisibilityBatch(r -> r.queueUrl(url).entries(entries));
    }
  }
}
