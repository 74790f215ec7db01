package com.acme.fulfil.contract.records;

import java.util.List;
import java.util.Set;

/**
 * The label the function puts on a message it sends straight to the DLQ, beside the original
 * attributes, where SQS's limits (10 attributes, 256 KiB) leave room for it: information for whoever
 * reads the message. A label travels with a redrive into the message's next life, so no verdict rests
 * on it: {@code fulfil-ops dlq} judges by the body and the order's record.
 */
public final class DeadLetterAttributes {
  /** {@code invalid_message} (the producer broke the order contract) or {@code partner_rejected}. */
  public static final String FAILURE_CLASS = "failure_class";
  /** The exact reason: field paths or the partner's status and error code, never the address. */
  public static final String FAILURE_REASON = "failure_reason";
  /** The order's id, when the message had a readable one. */
  public static final String ORDER_ID = "order_id";
  /** The id of the message in orders-to-fulfil that this one stands for. */
  public static final String SOURCE_MESSAGE_ID = "source_message_id";
  /** When the producer first sent the message, ISO-8601 UTC. */
  public static final String FIRST_SENT_AT = "first_sent_at";
  /** When the function wrote these attributes, ISO-8601 UTC. */
  public static final String FAILURE_AT = "failure_at";

  /** The failure class of a body that breaks the order message contract: the producer's to fix. */
  public static final String INVALID_MESSAGE = "invalid_message";
  /** The failure classes the function sends straight to the DLQ: neither can ever succeed as sent. */
  public static final Set<String> FAILURE_CLASSES = Set.of(INVALID_MESSAGE, OrderRecordLayout.PARTNER_REJECTED);

  /** The failure reason of a body that breaks the order message contract, in the function's and on-call's words. */
  public static String invalidMessageReason(String violations) {
    return "invalid order message: " + violations;
  }

  /** The label's attributes, in the order they are written. */
  public static final List<String> ALL = List.of(FAILURE_CLASS, FAILURE_REASON, FAILURE_AT, SOURCE_MESSAGE_ID, ORDER_ID,
      FIRST_SENT_AT);

  private DeadLetterAttributes() {}
}
