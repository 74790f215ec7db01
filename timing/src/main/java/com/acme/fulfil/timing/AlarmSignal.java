package com.acme.fulfil.timing;

/**
 * What an alarm watches, one datapoint a period. The stack reads each from CloudWatch; the local run
 * computes the same datapoint from what it observed of its queues, mapping and function.
 */
public enum AlarmSignal {
  /**
   * Messages new in the DLQ: the Sum of NumberOfMessagesSent (the function's poison, which it sends
   * itself) plus the rise, if any, of the Maximum of ApproximateNumberOfMessagesVisible since the period
   * before (what the redrive policy moved, which SQS does not count as sent).
   */
  DLQ_ARRIVALS(Statistic.SUM, true),
  /** ApproximateAgeOfOldestMessage of the source queue, in seconds. */
  OLDEST_MESSAGE_AGE(Statistic.MAXIMUM, false),
  /** ApproximateNumberOfMessagesNotVisible of the source queue: received and not yet deleted. */
  IN_FLIGHT(Statistic.MAXIMUM, false),
  /** ApproximateNumberOfMessagesVisible of the source queue: waiting for an invocation. */
  WAITING(Statistic.MINIMUM, false),
  /** The function's Errors: invocations that failed as a whole (a crash or a timeout). */
  FUNCTION_ERRORS(Statistic.SUM, false),
  /** The function's Throttles. */
  THROTTLES(Statistic.SUM, false),
  /** The event source mapping's DroppedEventCount. */
  DROPPED_EVENTS(Statistic.SUM, false),
  /**
   * 1 for a period in which the Sum of the function's TransientFailure was above 0 and the Sums of its
   * OrderBooked and BookingAdopted were 0, else 0.
   */
  FAILING_WITHOUT_BOOKING(Statistic.SUM, false);

  /**
   * The function's metrics {@link #FAILING_WITHOUT_BOOKING} reads, by the names the function emits them
   * under: the stack's alarm and the local run's both read them by these names.
   */
  public static final String TRANSIENT_FAILURE = "TransientFailure";
  public static final String ORDER_BOOKED = "OrderBooked";
  public static final String BOOKING_ADOPTED = "BookingAdopted";

  /** How a period's values of the signal's metrics become its datapoint. */
  public enum Statistic { SUM, MAXIMUM, MINIMUM }

  private final Statistic statistic;
  private final boolean needsDeadLetterQueue;

  AlarmSignal(Statistic statistic, boolean needsDeadLetterQueue) {
    this.statistic = statistic;
    this.needsDeadLetterQueue = needsDeadLetterQueue;
  }

  /** The statistic of the signal's metric; of the counts it adds up, for an expression. */
  public Statistic statistic() {
    return statistic;
  }

  /** A queue without a redrive policy has no DLQ to watch, so the alarm cannot stand there. */
  public boolean needsDeadLetterQueue() {
    return needsDeadLetterQueue;
  }
}
