package com.acme.fulfil.contract.records;

/**
 * Fields of the function's JSON log lines that on-call's tools read: the function writes them,
 * {@code ./fulfil-ops} reads them, so both take the names from here.
 */
public final class OrderLogFields {
  /** The order's id: the key on-call searches the function's lines by. */
  public static final String ORDER_ID = "order_id";
  /** The SQS message the line's record came in. */
  public static final String MESSAGE_ID = "message_id";
  /** The message's ApproximateReceiveCount as this try saw it. */
  public static final String RECEIVE_COUNT = "receive_count";
  /** The W3C trace id the producer sent the order in, when it sent a valid one. */
  public static final String TRACE_ID = "trace_id";
  /** When a failed try's message returns to the queue for the order's next try, ISO-8601 UTC. */
  public static final String NEXT_TRY_AT = "next_try_at";

  private OrderLogFields() {}
}
