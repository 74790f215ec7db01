package com.acme.fulfil.fulfilment;

import com.acme.fulfil.booking.Booking;
import com.acme.fulfil.contract.records.DeadLetterAttributes;
import com.acme.fulfil.order.InvalidOrder;

/** What became of one SQS record: {@code AcknowledgementPolicy} decides from it what the queue is told. */
public sealed interface RecordOutcome {

  /** Successes: the message can be deleted. */
  sealed interface Done extends RecordOutcome {
    Booking booking();
  }

  /** This try booked a courier. */
  record Booked(Booking booking) implements Done {}

  /** This try found a booking an unfinished earlier try had made, and kept it. */
  record Adopted(Booking booking) implements Done {}

  /** The order was already booked by an earlier delivery: nothing to do. */
  record AlreadyBooked(Booking booking) implements Done {}

  /**
   * Can never succeed as it is: sent straight to the DLQ, or, if that send fails, returned at once for the next receive
   * to send it again, or the redrive policy after its last. {@code failureClass} is one of
   * {@link DeadLetterAttributes#FAILURE_CLASSES}; {@code orderId} is null if unreadable.
   */
  record Rejected(String failureClass, String reason, String orderId) implements RecordOutcome {
    /** The rejection of a body that breaks the order message contract, in the function's and on-call's words. */
    public static Rejected invalid(InvalidOrder invalid) {
      return new Rejected(DeadLetterAttributes.INVALID_MESSAGE, DeadLetterAttributes.invalidMessageReason(invalid.reason()),
          invalid.orderId());
    }
  }

  /** Worth retrying (partner or AWS trouble, no time left): {@code next} says when the message may come back. */
  record Retry(String reason, NextTry next) implements RecordOutcome {}

  /** Another invocation is booking this order now: the message waits until its lock ends ({@code next}). */
  record InProgressElsewhere(NextTry next) implements RecordOutcome {}
}
