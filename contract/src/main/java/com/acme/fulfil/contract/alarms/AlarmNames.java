package com.acme.fulfil.contract.alarms;

import java.util.List;

/** The stack's alarms, by name: the stack creates them, on-call's {@code check} expects each to be there. */
public final class AlarmNames {
  public static final String DLQ_NEW_MESSAGES = "orders-to-fulfil-dlq-new-messages";
  public static final String DLQ_NOT_EMPTY = "orders-to-fulfil-dlq-not-empty";
  public static final String OLDEST_MESSAGE_TOO_OLD = "orders-to-fulfil-oldest-message-too-old";
  public static final String IN_FLIGHT_NEAR_CAP = "orders-to-fulfil-in-flight-near-cap";
  public static final String FUNCTION_ERRORS = "fulfil-order-errors";
  public static final String FUNCTION_THROTTLES = "fulfil-order-throttles";
  public static final String BACKLOG = "orders-to-fulfil-backlog";
  public static final String PARTNER_FAILING = "fulfil-order-partner-failing";
  public static final String STALLED = "orders-to-fulfil-stalled";
  public static final String BOOKED_AFTER_HOLD = "fulfil-order-booked-after-hold";

  public static final List<String> ALL = List.of(DLQ_NEW_MESSAGES, DLQ_NOT_EMPTY, OLDEST_MESSAGE_TOO_OLD, IN_FLIGHT_NEAR_CAP,
      FUNCTION_ERRORS, FUNCTION_THROTTLES, BACKLOG, PARTNER_FAILING, STALLED, BOOKED_AFTER_HOLD);

  private AlarmNames() {}
}
