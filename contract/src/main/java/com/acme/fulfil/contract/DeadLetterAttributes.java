package com.acme.fulfil.contract;

import java.util.List;

/**
 * The label the function puts on a message it sends straight to the DLQ, beside the original
 * attributes: the function writes it, on-call's tools and the tests read it (docs/runbook.md, section
 * 2). Kept here with the environment's names so the writers and the readers share one list. SQS takes
 * 10 message attributes and 256 KiB in all: where the producer's own leave no room for the label (or
 * use one of its names), the label goes to the function's table instead, as a record of these
 * attributes under {@link #storedLabelKey}, which {@code fulfil-ops dlq} reads.
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
  /**
   * When the function wrote these attributes, ISO-8601 UTC. They speak only for the message they were
   * written on: a redrive carries them into the order's next life, where they no longer say why it is
   * in the DLQ. A message the function sent has a SentTimestamp within seconds of this.
   */
  public static final String FAILURE_AT = "failure_at";

  /** The label's attributes, in the order they are written. */
  public static final List<String> ALL = List.of(FAILURE_CLASS, FAILURE_REASON, FAILURE_AT, SOURCE_MESSAGE_ID, ORDER_ID,
      FIRST_SENT_AT);

  private DeadLetterAttributes() {}

  /**
   * The key of the table record that holds the label of DLQ message {@code deadLetterMessageId} when
   * the message had no room for it (beside {@link OrderRecordLayout#keyOf}'s, never equal to one).
   */
  public static String storedLabelKey(String functionName, String deadLetterMessageId) {
    return functionName + ".dead-letter#" + deadLetterMessageId;
  }
}
