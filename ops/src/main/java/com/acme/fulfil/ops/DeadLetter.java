package com.acme.fulfil.ops;

import com.acme.fulfil.contract.records.DeadLetterAttributes;
import com.acme.fulfil.contract.records.TraceHeaders;
import com.acme.fulfil.trace.TraceContext;
import com.acme.fulfil.order.InvalidOrder;
import com.acme.fulfil.order.OrderParser;
import com.acme.fulfil.order.ParsedOrder;
import com.acme.fulfil.order.ValidOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * One message in the DLQ, read: which order it carries, what its label says, and when SQS deletes it.
 * The label is information, never proof ({@link DeadLetterVerdict}); a message the redrive policy moved
 * was not labelled in this life, so its label, carried in from an earlier one, is not read.
 *
 * @param body the body as the function's parser reads it
 * @param failureClass the label's {@code invalid_message} or {@code partner_rejected}; {@value #RECEIVES_EXHAUSTED}
 *     for a message without a label of this life
 * @param reason the label's reason; empty if it has none
 * @param labelledAt when the function wrote the label
 * @param firstSentAt when the producer first sent the order, as the label says (a redriven message keeps its earlier life's)
 * @param movedByRedrivePolicy SQS names the queue the redrive policy moved it from: the function did not send it here
 */
record DeadLetter(Message message, ParsedOrder body, String sourceMessageId, Optional<String> orderId, String failureClass,
    Optional<String> reason, Instant sentAt, Instant deletedBySqsAt, Optional<Instant> labelledAt,
    Optional<Instant> firstSentAt, boolean movedByRedrivePolicy) {

  static final String RECEIVES_EXHAUSTED = "receives_exhausted";
  private static final OrderParser PARSER = new OrderParser(new ObjectMapper());

  String messageId() {
    return message.messageId();
  }

  /** The function labelled it in this life. */
  boolean labelled() {
    return !RECEIVES_EXHAUSTED.equals(failureClass);
  }

  static DeadLetter read(Message message, Duration dlqRetention) {
    boolean moved = message.attributes().containsKey(MessageSystemAttributeName.DEAD_LETTER_QUEUE_SOURCE_ARN);
    Map<String, String> label = new HashMap<>();
    if (!moved) {
      DeadLetterAttributes.ALL.forEach(name -> attribute(message, name).ifPresent(value -> label.put(name, value)));
    }
    Instant sentAt = Instant.ofEpochMilli(Long.parseLong(
        message.attributes().getOrDefault(MessageSystemAttributeName.SENT_TIMESTAMP, "0")));
    // A message the redrive policy moved keeps its first enqueue time, which SQS's retention counts from.
    // The order is the body's: an attribute named order_id may be the producer's, about anything.
    ParsedOrder body = PARSER.parse(message.body());
    return new DeadLetter(message, body,
        label.getOrDefault(DeadLetterAttributes.SOURCE_MESSAGE_ID, message.messageId()),
        Optional.ofNullable(switch (body) {
          case ValidOrder valid -> valid.order().orderId();
          case InvalidOrder invalid -> invalid.orderId();
        }),
        label.getOrDefault(DeadLetterAttributes.FAILURE_CLASS, RECEIVES_EXHAUSTED),
        Optional.ofNullable(label.get(DeadLetterAttributes.FAILURE_REASON)),
        sentAt, sentAt.plus(dlqRetention),
        Optional.ofNullable(label.get(DeadLetterAttributes.FAILURE_AT)).flatMap(DeadLetter::instant),
        Optional.ofNullable(label.get(DeadLetterAttributes.FIRST_SENT_AT)).flatMap(DeadLetter::instant),
        moved);
  }

  /**
   * The trace id of the producer's trace the message came in, read as the function reads it: its
   * {@code traceparent}, or its X-Ray header when it has none. Both survive the way into the DLQ.
   */
  Optional<String> traceId() {
    Optional<String> traceparent = Optional.ofNullable(message.messageAttributes().get(TraceHeaders.TRACEPARENT))
        .map(attribute -> Objects.requireNonNullElse(attribute.stringValue(), ""));
    return TraceContext.fromMessage(traceparent, message.attributes().get(MessageSystemAttributeName.AWS_TRACE_HEADER))
        .map(TraceContext::traceId);
  }

  private static Optional<Instant> instant(String text) {
    try {
      return Optional.of(Instant.parse(text));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private static Optional<String> attribute(Message message, String name) {
    MessageAttributeValue value = message.messageAttributes().get(name);
    return value == null ? Optional.empty() : Optional.ofNullable(value.stringValue());
  }
}
