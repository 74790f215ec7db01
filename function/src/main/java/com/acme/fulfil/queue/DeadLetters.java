package com.acme.fulfil.queue;

import static com.acme.fulfil.timing.DeadLetterAttributes.FAILURE_AT;
import static com.acme.fulfil.timing.DeadLetterAttributes.FAILURE_CLASS;
import static com.acme.fulfil.timing.DeadLetterAttributes.FAILURE_REASON;
import static com.acme.fulfil.timing.DeadLetterAttributes.FIRST_SENT_AT;
import static com.acme.fulfil.timing.DeadLetterAttributes.ORDER_ID;
import static com.acme.fulfil.timing.DeadLetterAttributes.SOURCE_MESSAGE_ID;

import com.acme.fulfil.fulfilment.RecordOutcome;
import com.acme.fulfil.observability.TraceContext;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.MessageAttribute;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;

/**
 * Sends a message that can never succeed straight to the DLQ on its first receive, with why: the
 * original body and message attributes, plus {@code DeadLetterAttributes}: the failure class, the exact
 * reason (field paths and the partner's error code, never the address), the order id, the source
 * message id, when the message was first sent and when the failure was judged. The message's trace
 * goes with it: its {@code traceparent} is one of its attributes, and its X-Ray header is set again as
 * the system attribute it came as (which SQS lets win over the header of the function's own call,
 * were active tracing on). One partner call for a rejected order instead of five, and the
 * reason on the message instead of only in the logs. On-call reads them with {@code fulfil-ops dlq} or
 * {@code aws sqs receive-message --message-attribute-names All}.
 */
public final class DeadLetters {
  private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);
  /** SQS takes at most 10 message attributes. */
  private static final int ATTRIBUTE_LIMIT = 10;

  private final Supplier<SqsClient> sqs;
  private final Optional<String> deadLetterQueueUrl;
  private final Clock clock;

  /** @param deadLetterQueueUrl none where the function was deployed without it: every message then takes the redrive policy's path */
  public DeadLetters(Supplier<SqsClient> sqs, Optional<String> deadLetterQueueUrl, Clock clock) {
    this.sqs = sqs;
    this.deadLetterQueueUrl = deadLetterQueueUrl;
    this.clock = clock;
  }

  /**
   * True once the DLQ holds the message: the source may then delete it. False if it could not be sent
   * (no DLQ configured, SQS refused, too many attributes to add ours): the caller keeps today's path.
   */
  public boolean send(SQSMessage message, RecordOutcome.Rejected rejected) {
    if (deadLetterQueueUrl.isEmpty()) {
      return false;
    }
    Map<String, MessageAttributeValue> attributes = new HashMap<>();
    if (message.getMessageAttributes() != null) {
      message.getMessageAttributes().forEach((name, value) -> attributes.put(name, copy(value)));
    }
    attributes.put(FAILURE_CLASS, text(rejected.failureClass()));
    attributes.put(FAILURE_REASON, text(rejected.reason()));
    // Replaces the failure_at of an earlier life, which a redriven message carries in.
    attributes.put(FAILURE_AT, text(clock.instant().toString()));
    attributes.put(SOURCE_MESSAGE_ID, text(message.getMessageId()));
    if (rejected.orderId() != null && !rejected.orderId().isBlank()) {
      attributes.put(ORDER_ID, text(rejected.orderId()));
    }
    // A redriven message carries first_sent_at in from its earlier life, and its SentTimestamp is the redrive's.
    firstSent(message).ifPresent(sent -> attributes.putIfAbsent(FIRST_SENT_AT, text(sent.toString())));
    if (attributes.size() > ATTRIBUTE_LIMIT) {
      LOG.warn("message carries too many attributes to add the failure's; it takes the redrive policy's path");
      return false;
    }
    Map<MessageSystemAttributeNameForSends, MessageSystemAttributeValue> systemAttributes = new HashMap<>();
    awsTraceHeader(message).ifPresent(header -> systemAttributes.put(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
        MessageSystemAttributeValue.builder().dataType("String").stringValue(header).build()));
    try {
      String id = sqs.get().sendMessage(r -> r.queueUrl(deadLetterQueueUrl.get())
          .messageBody(message.getBody()).messageAttributes(attributes).messageSystemAttributes(systemAttributes)).messageId();
      LOG.info("sent to the DLQ as message {}: {}", id, rejected.reason());
      return true;
    } catch (SdkException e) {
      LOG.warn("could not send the message to the DLQ ({}); it takes the redrive policy's path", e.toString());
      return false;
    }
  }

  private static Optional<String> awsTraceHeader(SQSMessage message) {
    return Optional.ofNullable(message.getAttributes()).map(attributes -> attributes.get(TraceContext.AWS_TRACE_HEADER));
  }

  private static Optional<Instant> firstSent(SQSMessage message) {
    String sent = message.getAttributes() == null ? null : message.getAttributes().get("SentTimestamp");
    try {
      return sent == null ? Optional.empty() : Optional.of(Instant.ofEpochMilli(Long.parseLong(sent)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static MessageAttributeValue text(String value) {
    return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
  }

  private static MessageAttributeValue copy(MessageAttribute attribute) {
    MessageAttributeValue.Builder copy = MessageAttributeValue.builder().dataType(attribute.getDataType());
    if (attribute.getStringValue() != null) {
      copy.stringValue(attribute.getStringValue());
    }
    if (attribute.getBinaryValue() != null) {
      copy.binaryValue(SdkBytes.fromByteBuffer(attribute.getBinaryValue().duplicate()));
    }
    return copy.build();
  }
}
