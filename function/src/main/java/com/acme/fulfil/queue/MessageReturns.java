package com.acme.fulfil.queue;

import com.acme.fulfil.contract.sqs.SqsLimits;
import com.acme.fulfil.fulfilment.ReceivedMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;

/**
 * Sets when failed records' messages return, before they are reported as batch item failures, which the event source
 * mapping would leave invisible for the queue's whole timeout. Best effort: that timeout outlasts any try and its
 * late-booking hold ({@code TimingBudget}), so a message not changed returns later, never earlier.
 */
public final class MessageReturns {
  private static final Logger LOG = LoggerFactory.getLogger(MessageReturns.class);

  private final Supplier<SqsClient> sqs;
  private final Clock clock;
  private final Map<String, String> queueUrlByArn = new ConcurrentHashMap<>();

  /** A message of this invocation and how long from now it stays invisible. */
  public record Return(ReceivedMessage message, Duration after) {}

  public MessageReturns(Supplier<SqsClient> sqs, Clock clock) {
    this.sqs = sqs;
    this.clock = clock;
  }

  public void returnAll(List<Return> returns) {
    Map<String, List<Return>> byQueue = new LinkedHashMap<>();
    for (Return r : returns) {
      Optional<String> queueArn = r.message().sourceQueueArn();
      if (queueArn.isEmpty()) {
        LOG.warn("message {} names no source queue; it returns when its visibility timeout ends",
            r.message().messageId());
      } else if (!withinTheCeiling(r)) {
        LOG.warn("message {} cannot wait {} s: SQS keeps a message invisible at most 12 hours after its first receive;"
            + " it returns when its visibility timeout ends", r.message().messageId(), seconds(r.after()));
      } else {
        byQueue.computeIfAbsent(queueArn.get(), arn -> new ArrayList<>()).add(r);
      }
    }
    byQueue.forEach((arn, fromQueue) -> {
      for (int i = 0; i < fromQueue.size(); i += SqsLimits.MAX_BATCH_ENTRIES) {
        returnAll(arn, fromQueue.subList(i, Math.min(i + SqsLimits.MAX_BATCH_ENTRIES, fromQueue.size())));
      }
    });
  }

  private boolean withinTheCeiling(Return r) {
    Instant firstReceived = r.message().firstReceivedAt().orElse(clock.instant());
    Instant visibleAgain = clock.instant().plusSeconds(seconds(r.after()));
    return !visibleAgain.isAfter(firstReceived.plus(SqsLimits.MAX_VISIBILITY));
  }

  private void returnAll(String queueArn, List<Return> returns) {
    try {
      String queueUrl = queueUrlByArn.computeIfAbsent(queueArn, this::queueUrl);
      // Entry ids by position: the same message can be in a batch twice, and SQS refuses a request whose
      // ids repeat (BatchEntryIdsNotDistinct), which would leave every message of it waiting a whole timeout.
      var entries = IntStream.range(0, returns.size()).mapToObj(i -> ChangeMessageVisibilityBatchRequestEntry.builder()
          .id(Integer.toString(i)).receiptHandle(returns.get(i).message().receiptHandle())
          .visibilityTimeout((int) seconds(returns.get(i).after())).build()).toList();
      sqs.get().changeMessageVisibilityBatch(r -> r.queueUrl(queueUrl).entries(entries)).failed().forEach(f -> LOG.warn(
          "could not set when message {} returns; it returns when its visibility timeout ends: {} {}",
          returns.get(Integer.parseInt(f.id())).message().messageId(), f.code(), f.message()));
    } catch (SdkException | IllegalArgumentException e) {
      LOG.warn("could not set when {} message(s) return; they return when their visibility timeout ends: {}",
          returns.size(), e.toString());
    }
  }

  /** Whole seconds, SQS's unit, rounded up: a message locked until a moment must not return a fraction before it. */
  private static long seconds(Duration wait) {
    return Math.max(0, wait.plusNanos(999_999_999).toSeconds());
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
