package com.acme.fulfil.queue;

import static com.acme.fulfil.contract.records.DeadLetterAttributes.*;

import com.acme.fulfil.fulfilment.ReceivedMessage;
import com.acme.fulfil.fulfilment.RecordOutcome;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Why a message is in the DLQ, as the function judged it on its first receive, in text SQS takes as attributes. */
record DeadLetterLabel(Map<String, String> values) {
  /** Enough for any reason of the function's; a partner's longer text is cut, whole in the log line and the record. */
  private static final int VALUE_LIMIT = 1_024;
  private static final String CUT = "…";

  DeadLetterLabel {
    values = Map.copyOf(values);
  }

  static DeadLetterLabel of(ReceivedMessage message, RecordOutcome.Rejected rejected, Instant judgedAt) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put(FAILURE_CLASS, rejected.failureClass());
    values.put(FAILURE_REASON, rejected.reason());
    values.put(FAILURE_AT, judgedAt.toString());
    values.put(SOURCE_MESSAGE_ID, message.messageId());
    if (rejected.orderId() != null && !rejected.orderId().isBlank()) {
      values.put(ORDER_ID, rejected.orderId());
    }
    firstSent(message).ifPresent(sent -> values.put(FIRST_SENT_AT, sent));
    values.replaceAll((name, value) -> sendable(value));
    return new DeadLetterLabel(values);
  }

  /** A redriven message carries it from its earlier life's label, since its own SentTimestamp is the redrive's. */
  private static Optional<String> firstSent(ReceivedMessage message) {
    Optional<String> earlierLife = Optional.ofNullable(message.attributes().get(FIRST_SENT_AT))
        .map(attribute -> attribute.stringValue())
        .filter(sent -> !sent.isBlank());
    return earlierLife.isPresent() ? earlierLife : message.sentAt().map(Instant::toString);
  }

  /**
   * {@code text} in the characters SQS documents for an attribute value (#x9, #xA, #xD, #x20-#xD7FF, #xE000-#xFFFD,
   * #x10000-#x10FFFF; any other, a lone surrogate too, becomes U+FFFD), cut to the limit with an ellipsis.
   */
  private static String sendable(String text) {
    StringBuilder sendable = new StringBuilder(Math.min(text.length(), VALUE_LIMIT));
    text.codePoints().forEach(c -> sendable.appendCodePoint(allowed(c) ? c : 0xFFFD));
    if (sendable.length() <= VALUE_LIMIT) {
      return sendable.toString();
    }
    int end = VALUE_LIMIT - CUT.length();
    // Never between the two halves of a pair: a lone surrogate is not sendable either.
    if (Character.isHighSurrogate(sendable.charAt(end - 1))) {
      end--;
    }
    return sendable.substring(0, end) + CUT;
  }

  private static boolean allowed(int c) {
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)
        || (c >= 0x10000 && c <= 0x10FFFF);
  }
}
