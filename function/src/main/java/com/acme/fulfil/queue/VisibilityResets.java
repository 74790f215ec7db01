package com.acme.fulfil.queue;

import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;

/**
 * Makes messages that can never succeed visible again at once ({@code ChangeMessageVisibility 0}), so
 * the redrive policy moves them to the DLQ after maxReceiveCount quick receives instead of five
 * 30-minute visibility windows. The event source mapping does not do this for us: on a batch item
 * failure it leaves the message invisible for the whole timeout.
 */
public final class VisibilityResets {
  private static final Logger LOG = LoggerFactory.getLogger(VisibilityResets.class);
  private static final int SQS_BATCH_LIMIT = 10;

  private final Supplier<SqsClient> sqs;
  private final Map<String, String> queueUrlByArn = new ConcurrentHashMap<>();

  /** @param sqs the client, asked for only when a message is to be returned */
  public VisibilityResets(Supplier<SqsClient> sqs) {
    this.sqs = sqs;
  }

  /**
   * Best effort, message by message whatever the batch holds: if SQS refuses, or a record names no
   * usable queue, the message still comes back when its visibility timeout ends.
   */
  public void returnNow(List<SQSMessage> messages) {
    Map<String, List<SQSMessage>> byQueue = new LinkedHashMap<>();
    for (SQSMessage message : messages) {
      String queueArn = message.getEventSourceArn();
      if (queueArn == null || queueArn.isBlank()) {
        LOG.warn("message {} names no source queue; it returns when its visibility timeout ends", message.getMessageId());
        continue;
      }
      byQueue.computeIfAbsent(queueArn, arn -> new ArrayList<>()).add(message);
    }
    byQueue.forEach((arn, fromQueue) -> {
      for (int i = 0; i < fromQueue.size(); i += SQS_BATCH_LIMIT) {
        returnNow(arn, fromQueue.subList(i, Math.min(i + SQS_BATCH_LIMIT, fromQueue.size())));
      }
    });
  }

  private void returnNow(String queueArn, List<SQSMessage> messages) {
    try {
      String queueUrl = queueUrlByArn.computeIfAbsent(queueArn, this::queueUrl);
      // Entry ids by position: the same message can be in a batch twice, and SQS refuses a request whose
      // ids repeat (BatchEntryIdsNotDistinct), which would leave poison waiting a whole visibility timeout.
      List<ChangeMessageVisibilityBatchRequestEntry> entries = new ArrayList<>();
      for (int i = 0; i < messages.size(); i++) {
        entries.add(ChangeMessageVisibilityBatchRequestEntry.builder()
            .id(Integer.toString(i)).receiptHandle(messages.get(i).getReceiptHandle()).visibilityTimeout(0).build());
      }
      var response = sqs.get().changeMessageVisibilityBatch(r -> r.queueUrl(queueUrl).entries(entries));
      response.failed().forEach(f -> LOG.warn("could not return message {} to the queue at once: {} {}",
          messages.get(Integer.parseInt(f.id())).getMessageId(), f.code(), f.message()));
    } catch (SdkException | IllegalArgumentException e) {
      LOG.warn("could not return {} message(s) to the queue at once; they return when their visibility timeout ends: {}",
          messages.size(), e.toString());
    }
  }

  /** {@code arn:aws:sqs:<region>:<account>:<name>}: the URL is SQS's to give, endpoints differ locally. */
  private String queueUrl(String queueArn) {
    String[] parts = queueArn.split(":");
    if (parts.length != 6) {
      throw new IllegalArgumentException("not an SQS queue ARN: " + queueArn);
    }
    return sqs.get().getQueueUrl(r -> r.queueName(parts[5]).queueOwnerAWSAccountId(parts[4])).queueUrl();
  }
}
