package com.acme.fulfil.fulfilment;

import com.acme.fulfil.booking.Booking;
import com.acme.fulfil.contract.OrderRecordLayout;
import com.acme.fulfil.order.InvalidOrder;

/** What became of one SQS record, and so what the queue must be told about it. */
public sealed interface RecordOutcome {

  /** The record failed and must stay on the queue (a batch item failure). */
  default boolean failed() {
    return !(this instanceof Done);
  }

  /** Successes: the message can be deleted. */
  sealed interface Done extends RecordOutcome {
    Booking booking();
  }

  /** This try booked a courier. */
  record Booked(Booking booking) implements Done {}

  /** This try found a booking an unfinished earlier try had made, and kept it. */
  record Adopted(Booking booking) implements Done {}

  /** The order was already booked by an earlier delivery: nothing to do (the duplicate the incident lacked). */
  record AlreadyBooked(Booking booking) implements Done {}

  /**
   * Can never succeed as it is: sent straight to the DLQ with its reason, or, if that send fails,
   * returned to the queue at once so the redrive policy moves it there after maxReceiveCount receives.
   *
   * @param failureClass {@code invalid_message} (the producer broke the order contract) or
   *     {@code OrderRecordLayout.PARTNER_REJECTED} (the partner's verdict on the order)
   * @param orderId the order's id, when the message had a readable one; null otherwise
   */
  record Rejected(String failureClass, String reason, String orderId) implements RecordOutcome {
    public static final String INVALID_MESSAGE = "invalid_message";
    public static final java.util.Set<String> CLASSES = java.util.Set.of(INVALID_MESSAGE, OrderRecordLayout.PARTNER_REJECTED);

    /** The rejection of a body that breaks the order message contract: the function's and on-call's words for it. */
    public static Rejected invalid(InvalidOrder invalid) {
      return new Rejected(INVALID_MESSAGE, "invalid order message: " + invalid.reason(), invalid.orderId());
    }
  }

  /** Worth retrying (partner or AWS trouble, no time left): {@code next} says when the message may come back. */
  record Retry(String reason, NextTry next) implements RecordOutcome {}

  /**
   * Another invocation is booking this order right now: leave the message be until its lock ends
   * ({@code next}); it will find the booking, or the order free.
   */
  record InProgressElsewhere(NextTry next) implements RecordOutcome {}
}
