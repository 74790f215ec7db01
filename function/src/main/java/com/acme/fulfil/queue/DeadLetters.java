package com.acme.fulfil.queue;

import com.acme.fulfil.fulfilment.RecordOutcome;
import com.acme.fulfil.observability.TraceContext;
import com.acme.fulfil.contract.DeadLetterAttributes;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.MessageAttribute;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
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
 * original body and message attributes as they were sent, and a {@link DeadLetterLabel}: the failure
 * class, the exact reason (field paths and the partner's error code, never the address), the order id,
 * the source message id, when the message was first sent and when the failure was judged. SQS takes 10
 * message attributes and 256 KiB in all: the label goes on the message where the producer's attributes
 * leave room for it (and use none of its names), else to the function's table ({@link StoredLabels}),
 * and the message goes as it was sent. The message's trace goes with it: its {@code traceparent} is one
 * of its attributes, and its X-Ray header is set again as the system attribute it came as (which SQS
 * lets win over the header of the function's own call, were active tracing on). One partner call for a
 * rejected order instead of five, and the reason where on-call reads it ({@code fulfil-ops dlq}).
 */
public final class DeadLetters {
  private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);
  /** SQS takes at most 10 message attributes. */
  private static final int ATTRIBUTE_LIMIT = 10;
  /** SQS's documented size limit, counting the body and every attribute's name, type and value. */
  private static final int SIZE_LIMIT = 256 * 1024;

  private final Supplier<SqsClient> sqs;
  private final Optional<String> deadLetterQueueUrl;
  private final StoredLabels storedLabels;
  private final Clock clock;

  /** @param deadLetterQueueUrl none where the function was deployed without it: every message then takes the redrive policy's path */
  public DeadLetters(Supplier<SqsClient> sqs, Optional<String> deadLetterQueueUrl, StoredLabels storedLabels, Clock clock) {
    this.sqs = sqs;
    this.deadLetterQueueUrl = deadLetterQueueUrl;
    this.storedLabels = storedLabels;
    this.clock = clock;
  }

  /**
   * True once the DLQ holds the message: the source may then delete it. False if it could not be sent
   * (no DLQ configured, SQS refused): the caller keeps today's path.
   */
  public boolean send(SQSMessage message, RecordOutcome.Rejected rejected) {
    if (deadLetterQueueUrl.isEmpty()) {
      return false;
    }
    Map<String, MessageAttributeValue> attributes = new HashMap<>();
    if (message.getMessageAttributes() != null) {
      message.getMessageAttributes().forEach((name, value) -> attributes.put(name, copy(value)));
    }
    DeadLetterLabel label = DeadLetterLabel.of(message, rejected, clock.instant());
    boolean labelOnMessage = roomFor(label, message.getBody(), attributes);
    if (labelOnMessage) {
      label.values().forEach((name, value) -> attributes.put(name, text(value)));
    }
    Map<MessageSystemAttributeNameForSends, MessageSystemAttributeValue> systemAttributes = new HashMap<>();
    awsTraceHeader(message).ifPresent(header -> systemAttributes.put(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
        MessageSystemAttributeValue.builder().dataType("String").stringValue(header).build()));
    String id;
    try {
      id = sqs.get().sendMessage(r -> r.queueUrl(deadLetterQueueUrl.get())
          .messageBody(message.getBody()).messageAttributes(attributes).messageSystemAttributes(systemAttributes)).messageId();
    } catch (SdkException e) {
      LOG.warn("could not send the message to the DLQ ({}); it takes the redrive policy's path", e.toString());
      return false;
    }
    LOG.info("sent to the DLQ as message {}{}: {}", id, labelOnMessage ? "" : " (its label to the table: no room on the"
        + " message)", rejected.reason());
    if (!labelOnMessage) {
      store(id, label);
    }
    return true;
  }

  /**
   * The message is in the DLQ already: a label the table refuses is lost to {@code dlq}, which then says
   * redrive (a poison message comes back, one receive, and is labelled again); this line keeps the reason.
   */
  private void store(String deadLetterMessageId, DeadLetterLabel label) {
    try {
      storedLabels.store(deadLetterMessageId, label);
    } catch (SdkException e) {
      LOG.error("DLQ message {} has no label: the table refused it ({}); its reason: {}", deadLetterMessageId, e.toString(),
          label.values().get(DeadLetterAttributes.FAILURE_REASON));
    }
  }

  /** Whether SQS takes the message with the label's attributes beside the producer's, none of them replaced. */
  private static boolean roomFor(DeadLetterLabel label, String body, Map<String, MessageAttributeValue> attributes) {
    if (attributes.size() + label.values().size() > ATTRIBUTE_LIMIT
        || label.values().keySet().stream().anyMatch(attributes::containsKey)) {
      return false;
    }
    long size = bytes(body);
    for (Map.Entry<String, MessageAttributeValue> attribute : attributes.entrySet()) {
      size += bytes(attribute.getKey()) + size(attribute.getValue());
    }
    for (Map.Entry<String, String> value : label.values().entrySet()) {
      size += bytes(value.getKey()) + bytes("String") + bytes(value.getValue());
    }
    return size <= SIZE_LIMIT;
  }

  private static long size(MessageAttributeValue value) {
    return bytes(value.dataType()) + (value.stringValue() == null ? 0 : bytes(value.stringValue()))
        + (value.binaryValue() == null ? 0 : value.binaryValue().asByteArrayUnsafe().length);
  }

  private static long bytes(String text) {
    return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
  }

  private static Optional<String> awsTraceHeader(SQSMessage message) {
    return Optional.ofNullable(message.getAttributes()).map(attributes -> attributes.get(TraceContext.AWS_TRACE_HEADER));
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
