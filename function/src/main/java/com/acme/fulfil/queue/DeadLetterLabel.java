package com.acme.fulfil.queue;

import static com.acme.fulfil.contract.DeadLetterAttributes.FAILURE_AT;
import static com.acme.fulfil.contract.DeadLetterAttributes.FAILURE_CLASS;
import static com.acme.fulfil.contract.DeadLetterAttributes.FAILURE_REASON;
import static com.acme.fulfil.contract.DeadLetterAttributes.FIRST_SENT_AT;
import static com.acme.fulfil.contract.DeadLetterAttributes.ORDER_ID;
import static com.acme.fulfil.contract.DeadLetterAttributes.SOURCE_MESSAGE_ID;

import com.acme.fulfil.fulfilment.RecordOutcome;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Why a message is in the DLQ, as the function judged it on its first receive: the values of
 * {@code DeadLetterAttributes}, each sendable as an SQS attribute value (the reason is the partner's
 * words, partly: it is bounded and cleaned; the whole of it stays in the function's log line and the
 * order's record).
 */
record DeadLetterLabel(Map<String, String> values) {
  /** Enough for every reason the function writes; a longer one is the partner's text run long. */
  static final int VALUE_LIMIT = 1_024;

  DeadLetterLabel {
    values = Map.copyOf(values);
  }

  static DeadLetterLabel of(SQSMessage message, RecordOutcome.Rejected rejected, Instant judgedAt) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put(FAILURE_CLASS, rejected.failureClass());
    values.put(FAILURE_REASON, rejected.reason());
    values.put(FAILURE_AT, judgedAt.toString());
    values.put(SOURCE_MESSAGE_ID, message.getMessageId());
    if (rejected.orderId() != null && !rejected.orderId().isBlank()) {
      values.put(ORDER_ID, rejected.orderId());
    }
    firstSent(message).ifPresent(sent -> values.put(FIRST_SENT_AT, sent));
    values.replaceAll((name, value) -> SendableText.of(value, VALUE_LIMIT));
    return new DeadLetterLabel(values);
  }

  /**
   * When the producer sent the order: a redriven message carries it in from its earlier life's label,
   * since its own SentTimestamp is the redrive's.
   */
  private static Optional<String> firstSent(SQSMessage message) {
    Optional<String> earlierLife = Optional.ofNullable(message.getMessageAttributes())
        .map(attributes -> attributes.get(FIRST_SENT_AT))
        .map(attribute -> attribute.getStringValue())
        .filter(sent -> !sent.isBlank());
    if (earlierLife.isPresent()) {
      return earlierLife;
    }
    String sent = message.getAttributes() == null ? null : message.getAttributes().get("SentTimestamp");
    try {
      return sent == null ? Optional.empty() : Optional.of(Instant.ofEpochMilli(Long.parseLong(sent)).toString());
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
