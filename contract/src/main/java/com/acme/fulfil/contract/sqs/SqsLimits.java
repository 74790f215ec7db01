package com.acme.fulfil.contract.sqs;

import java.time.Duration;

/**
 * What SQS allows, as its documentation states it (the SQS Developer Guide's quotas): the budget, the function,
 * on-call's command and the local queues keep to it.
 */
public final class SqsLimits {
  /** A visibility timeout, and a message's hold after its first receive, at most 12 hours (43,200 s). */
  public static final Duration MAX_VISIBILITY = Duration.ofHours(12);
  /** A queue keeps a message at least a minute. */
  public static final Duration MIN_RETENTION = Duration.ofMinutes(1);
  /** A queue keeps a message at most 14 days. */
  public static final Duration MAX_RETENTION = Duration.ofDays(14);
  /** A standard queue refuses receives at about this many messages in flight (SQS's quota). */
  public static final long IN_FLIGHT_CAP = 120_000;
  /** A redrive policy's maxReceiveCount is at most 1,000. */
  public static final int MAX_RECEIVE_COUNT = 1000;
  /** One receive returns, and one batch call (send, delete, change visibility) takes, at most 10 messages. */
  public static final int MAX_BATCH_ENTRIES = 10;
  /** A message carries at most 10 message attributes. */
  public static final int MAX_MESSAGE_ATTRIBUTES = 10;
  /** A message, body and attributes together, is at most 256 KiB, counted in UTF-8 bytes. */
  public static final int MAX_MESSAGE_BYTES = 256 * 1024;

  private SqsLimits() {}
}
