package com.acme.fulfil.contract;

/**
 * What an alarm watches, one datapoint a period. The stack reads each from CloudWatch; the local run
 * computes the same datapoint from what it observed of its queues, mapping and function.
 */
public enum AlarmSignal {
  /**
   * Messages on their way to the DLQ: the Sum of the function's DeadLettered, counted where it decides
   * (a message it sends there, or one whose last receive failed, which the redrive policy then moves).
   * Neither SQS metric counts these: NumberOfMessagesSent leaves out what a redrive policy moves, and a
   * rise of the DLQ's depth is cancelled by a drop or a redrive in the same period.
   */
  DLQ_ARRIVALS(Statistic.SUM, true),
  /** ApproximateNumberOfMessagesVisible of the DLQ: dead letters waiting for on-call, however they got there. */
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
  FAILING_WITHOUT_BOOKING(Statistic.SUM, false);

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
