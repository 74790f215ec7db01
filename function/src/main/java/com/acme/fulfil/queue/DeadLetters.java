package com.acme.fulfil.queue;

import com.acme.fulfil.booking.OrderRecords;
import com.acme.fulfil.contract.records.DeadLetterAttributes;
import com.acme.fulfil.contract.records.OrderRecordLayout;
import com.acme.fulfil.contract.sqs.SqsLimits;
import com.acme.fulfil.fulfilment.ReceivedMessage;
import com.acme.fulfil.fulfilment.RecordOutcome;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;

/**
 * Sends a message that can never succeed straight to the DLQ on its first receive, not after maxReceiveCount partner
 * calls: as it was sent, X-Ray header included, with a {@link DeadLetterLabel} where it fits, replacing an earlier
 * life's label but none of the producer's attributes. For a partner's rejection the order's record then names the DLQ
 * message: that, not the label, is what {@code fulfil-ops dlq} drops on.
 */
public final class DeadLetters {
  private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

  private final Supplier<SqsClient> sqs;
  private final Optional<String> deadLetterQueueUrl;
  private final OrderRecords records;
  private final Clock clock;

  public DeadLetters(Supplier<SqsClient> sqs, Optional<String> deadLetterQueueUrl, OrderRecords records, Clock clock) {
    this.sqs = sqs;
    this.deadLetterQueueUrl = deadLetterQueueUrl;
    this.records = records;
    this.clock = clock;
  }

  /**
   * True once the DLQ holds the message, which the source may then delete; false with no DLQ or if SQS refused. A
   * message the partner rejected that stays on the source is named on the order's record, so that its next receive
   * comes back here without asking the partner again.
   */
  public boolean send(ReceivedMessage message, RecordOutcome.Rejected rejected) {
    boolean sent = deadLetterQueueUrl.isPresent() && sendTo(deadLetterQueueUrl.get(), message, rejected);
    if (!sent && OrderRecordLayout.PARTNER_REJECTED.equals(rejected.failureClass())) {
      try {
        records.rejectedMessageReturned(rejected.orderId(), message.messageId());
      } catch (SdkException e) {
        LOG.warn("the order's record does not name the rejected message ({}): its next receive asks the partner again",
            e.toString());
      }
    }
    return sent;
  }

  private boolean sendTo(String queueUrl, ReceivedMessage message, RecordOutcome.Rejected rejected) {
    Map<String, MessageAttributeValue> attributes = message.attributes();
    Map<String, String> label = DeadLetterLabel.of(message, rejected, clock.instant()).values();
    Map<String, MessageAttributeValue> labelled = new HashMap<>(attributes);
    label.forEach((name, value) -> labelled.put(name, text(value)));
    boolean labelFits = (earlierLifesLabel(attributes) || Collections.disjoint(label.keySet(), attributes.keySet()))
        && fits(message.body(), labelled);
    var systemAttributes = message.awsTraceHeader().map(header -> Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
            MessageSystemAttributeValue.builder().dataType("String").stringValue(header).build()))
        .orElse(Map.of());
    String id;
    try {
      id = sqs.get().sendMessage(r -> r.queueUrl(queueUrl).messageBody(message.body())
          .messageAttributes(labelFits ? labelled : attributes).messageSystemAttributes(systemAttributes)).messageId();
    } catch (SdkException e) {
      LOG.warn("could not send the message to the DLQ ({}); it takes the redrive policy's path", e.toString());
      return false;
    }
    LOG.info("sent to the DLQ as message {}{}: {}", id,
        labelFits ? "" : " without its label (SQS's limits leave no room)", rejected.reason());
    if (OrderRecordLayout.PARTNER_REJECTED.equals(rejected.failureClass())) {
      try {
        records.deadLettered(rejected.orderId(), id);
      } catch (SdkException e) {
        LOG.warn("the order's record does not name DLQ message {} ({}): dlq will say redrive, not drop",
            id, e.toString());
      }
    }
    return true;
  }

  /** A label of the function's, from the message's earlier life: its failure class is one the function writes. */
  private static boolean earlierLifesLabel(Map<String, MessageAttributeValue> attributes) {
    MessageAttributeValue failureClass = attributes.get(DeadLetterAttributes.FAILURE_CLASS);
    return failureClass != null && DeadLetterAttributes.FAILURE_CLASSES.contains(failureClass.stringValue());
  }

  private static boolean fits(String body, Map<String, MessageAttributeValue> attributes) {
    long size = bytes(body);
    for (Map.Entry<String, MessageAttributeValue> attribute : attributes.entrySet()) {
      MessageAttributeValue value = attribute.getValue();
      size += bytes(attribute.getKey()) + bytes(value.dataType()) + bytes(value.stringValue())
          + (value.binaryValue() == null ? 0 : value.binaryValue().asByteArrayUnsafe().length);
    }
    return attributes.size() <= SqsLimits.MAX_MESSAGE_ATTRIBUTES && size <= SqsLimits.MAX_MESSAGE_BYTES;
  }

  private static long bytes(String text) {
    return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
  }

  private static MessageAttributeValue text(String value) {
    return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
  }
}
