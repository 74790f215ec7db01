package com.acme.fulfil.contract.timing;

import java.time.Duration;

/** What SQS allows, as its documentation states it: the budget, the function and the local queues keep to it. */
public final class SqsLimits {
  /** A visibility timeout, and a message's hold after its first receive, at most 12 hours (43,200 s). */
  public static final Duration MAX_VISIBILITY = Duration.ofHours(12);
  /** A standard queue refuses receives at about this many messages in flight (SQS's quota). */
  public static final long IN_FLIGHT_CAP = 120_000;

  private SqsLimits() {}
}
