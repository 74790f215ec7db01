package com.acme.fulfil.fulfilment;

import com.acme.fulfil.contract.records.TraceHeaders;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.MessageAttribute;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * One SQS message as Lambda's event handed it over, read once: every part of the function reads this, not the event.
 * SQS's system attributes are named by the SDK's {@link MessageSystemAttributeName}, nowhere else.
 *
 * @param receiveCount SQS's ApproximateReceiveCount: 1 for the first receive, and when SQS did not say
 * @param firstReceivedAt when SQS first handed the message out: its visibility can be set at most 12 hours after
 * @param sentAt when the message was sent to the queue it came from (a redriven message's redrive, not its first send)
 * @param sourceQueueArn the queue the message came from; empty if the event does not say
 * @param awsTraceHeader the X-Ray header SQS keeps as a system attribute
 * @param traceparent the producer's {@code traceparent} attribute if it has one: its text, empty text if it has none
 * @param attributes the producer's message attributes, as a copy sent to the DLQ carries them
 */
public record ReceivedMessage(String messageId, String receiptHandle, String body, int receiveCount,
    Optional<Instant> firstReceivedAt, Optional<Instant> sentAt, Optional<String> sourceQueueArn,
    Optional<String> awsTraceHeader, Optional<String> traceparent, Map<String, MessageAttributeValue> attributes) {

  public ReceivedMessage {
    attributes = Map.copyOf(attributes);
  }

  public static ReceivedMessage of(SQSMessage message) {
    Map<String, String> system = Objects.requireNonNullElse(message.getAttributes(), Map.of());
    Map<String, MessageAttribute> producers = Objects.requireNonNullElse(message.getMessageAttributes(), Map.of());
    Map<String, MessageAttributeValue> attributes = new HashMap<>();
    producers.forEach((name, value) -> attributes.put(name, copy(value)));
    return new ReceivedMessage(message.getMessageId(), message.getReceiptHandle(), message.getBody(),
        number(system.get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT.toString())).orElse(1L).intValue(),
        number(system.get(MessageSystemAttributeName.APPROXIMATE_FIRST_RECEIVE_TIMESTAMP.toString()))
            .map(Instant::ofEpochMilli),
        number(system.get(MessageSystemAttributeName.SENT_TIMESTAMP.toString())).map(Instant::ofEpochMilli),
        Optional.ofNullable(message.getEventSourceArn()).filter(arn -> !arn.isBlank()),
        Optional.ofNullable(system.get(MessageSystemAttributeName.AWS_TRACE_HEADER.toString())),
        Optional.ofNullable(producers.get(TraceHeaders.TRACEPARENT))
            .map(attribute -> Objects.requireNonNullElse(attribute.getStringValue(), "")),
        attributes);
  }

  /** A number SQS wrote as text; empty when it is missing or not one. */
  private static Optional<Long> number(String text) {
    try {
      return text == null ? Optional.empty() : Optional.of(Long.parseLong(text));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static MessageAttributeValue copy(MessageAttribute attribute) {
    var binary = Optional.ofNullable(attribute.getBinaryValue()).map(b -> SdkBytes.fromByteBuffer(b.duplicate()));
    return MessageAttributeValue.builder().dataType(attribute.getDataType()).stringValue(attribute.getStringValue())
        .binaryValue(binary.orElse(null)).build();
  }
}
