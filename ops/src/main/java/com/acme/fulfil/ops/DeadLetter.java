package com.acme.fulfil.ops;

import com.acme.fulfil.contract.TraceHeaders;
import com.acme.fulfil.observability.TraceContext;
import com.acme.fulfil.contract.DeadLetterAttributes;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * One message in the DLQ, read: which order it carries, why it is there, and when SQS deletes it.
 *
 * @param failureClass {@code invalid_message} or {@code partner_rejected} when the function sent it,
 *     {@value #RECEIVES_EXHAUSTED} when the redrive policy moved it
 * @param reason the function's reason from the message, or from the logs for a moved message; empty if
 *     neither says
 * @param labelledAt when the function wrote the failure attributes; empty for a message without them and
 *     for one labelled before labels were dated
 * @param firstSentAt when the producer first sent the order, as the label says (a redriven message keeps
 *     its earlier life's); empty for a message without a label
 * @param movedByRedrivePolicy SQS names the queue the redrive policy moved it from: the function did not
 *     send this message here, so any label on it was written in an earlier life
 */
record DeadLetter(Message message, String sourceMessageId, Optional<String> orderId, String failureClass,
    Optional<String> reason, Instant sentAt, Instant deletedBySqsAt, Optional<Instant> labelledAt,
    Optional<Instant> firstSentAt, boolean movedByRedrivePolicy) {

  static final String RECEIVES_EXHAUSTED = "receives_exhausted";
  private static final ObjectMapper JSON = new ObjectMapper();

  String messageId() {
    return message.messageId();
  }

  /** The function labelled it with a failure it judged permanent, in this life or an earlier one. */
  boolean labelled() {
    return !RECEIVES_EXHAUSTED.equals(failureClass);
  }

  /** The message, labelled as it says: by the attributes the function put on it, if any. */
  static DeadLetter read(Message message, Duration dlqRetention) {
    Map<String, String> label = new HashMap<>();
    DeadLetterAttributes.ALL.forEach(name -> attribute(message, name).ifPresent(value -> label.put(name, value)));
    return read(message, dlqRetention, label);
  }

  /**
   * The message with the label the function kept in its table for it (the message had no room), which
   * speaks for it rather than any attribute of its producer's that bears a label's name.
   */
  DeadLetter withStoredLabel(Map<String, String> label) {
    return read(message, Duration.between(sentAt, deletedBySqsAt), label);
  }

  private static DeadLetter read(Message message, Duration dlqRetention, Map<String, String> label) {
    Instant sentAt = Instant.ofEpochMilli(Long.parseLong(
        message.attributes().getOrDefault(MessageSystemAttributeName.SENT_TIMESTAMP, "0")));
    // A message the redrive policy moved keeps its first enqueue time, which SQS's retention counts from.
    // The order is the body's: an attribute named order_id may be the producer's, about anything.
    return new DeadLetter(message,
        label.getOrDefault(DeadLetterAttributes.SOURCE_MESSAGE_ID, message.messageId()),
        orderIdIn(message.body()),
        label.getOrDefault(DeadLetterAttributes.FAILURE_CLASS, RECEIVES_EXHAUSTED),
        Optional.ofNullable(label.get(DeadLetterAttributes.FAILURE_REASON)),
        sentAt, sentAt.plus(dlqRetention),
        Optional.ofNullable(label.get(DeadLetterAttributes.FAILURE_AT)).flatMap(DeadLetter::instant),
        Optional.ofNullable(label.get(DeadLetterAttributes.FIRST_SENT_AT)).flatMap(DeadLetter::instant),
        message.attributes().containsKey(MessageSystemAttributeName.DEAD_LETTER_QUEUE_SOURCE_ARN));
  }

  /**
   * The trace id of the producer's trace the message came in, read as the function reads it: its
   * {@code traceparent}, or its X-Ray header when it has none. Both survive the way into the DLQ.
   */
  Optional<String> traceId() {
    Optional<TraceContext> trace = message.messageAttributes().containsKey(TraceHeaders.TRACEPARENT)
        ? attribute(message, TraceHeaders.TRACEPARENT).flatMap(TraceContext::fromTraceparent)
        : Optional.ofNullable(message.attributesAsStrings().get(TraceContext.AWS_TRACE_HEADER))
            .flatMap(TraceContext::fromAwsTraceHeader);
    return trace.map(TraceContext::traceId);
  }

  DeadLetter withReason(Optional<String> found) {
    return new DeadLetter(message, sourceMessageId, orderId, failureClass, reason.or(() -> found), sentAt, deletedBySqsAt,
        labelledAt, firstSentAt, movedByRedrivePolicy);
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

  private static Optional<String> orderIdIn(String body) {
    try {
      JsonNode orderId = JSON.readTree(body).get("order_id");
      return orderId != null && orderId.isTextual() ? Optional.of(orderId.asText()) : Optional.empty();
    } catch (Exception e) {
      return Optional.empty();
    }
  }
}
