package com.acme.fulfil.contract.alarms;

/**
 * What an alarm watches, one datapoint a period. The stack reads each from CloudWatch; the local run
 * computes the same datapoint from what it observed of its queues, mapping and function.
 */
public enum AlarmSignal {
  /**
   * Messages reaching the DLQ, whatever moved them, in a minute: the most of the Sum of the function's
   * DeadLettered (a message it sends there, or one whose last receive failed, which the redrive policy moves
   * when it next returns), the Sum of the DLQ's NumberOfMessagesSent (anything that sent one there; it
   * leaves out what a redrive policy moves) and the rise of the DLQ's messages, visible and in flight,
   * since the minute before (what the redrive policy moved, however the last receive ended). Above 0 means
   * at least one arrived, whatever the DLQ already held; a drop or a redrive in the same minute can hide
   * a rise, never make one.
   */
  DLQ_ARRIVALS(Statistic.MAXIMUM, true),
  /**
   * The DLQ's messages: its ApproximateNumberOfMessagesVisible plus its ApproximateNumberOfMessagesNotVisible
   * (SQS reports the second only while some are in flight, so a missing one is none). None while SQS reports
   * no visible count: the DLQ is inactive, or the metric is late, and neither proves it empty.
   */
  DLQ_DEPTH(Statistic.MAXIMUM, true),
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
  /**
   * 1 for a period in which the Sum of the function's TransientFailure was above 0 and the Sums of its
   * OrderBooked and BookingAdopted were 0, else 0.
   */
  FAILING_WITHOUT_BOOKING(Statistic.SUM, false),
  /**
   * 1 for a period in which the source queue had messages visible all along (the Minimum of
   * ApproximateNumberOfMessagesVisible above 0) and the Sums of its NumberOfMessagesReceived and
   * NumberOfMessagesDeleted were 0, else 0: orders wait and nothing takes or finishes any.
   */
  STALLED(Statistic.SUM, false),
  /** The Sum of the function's BookingAdoptedAfterHold: bookings the partner made after the order's late-booking hold ended. */
  BOOKED_AFTER_HOLD(Statistic.SUM, false);

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
