package com.acme.fulfil.booking;

import software.amazon.lambda.powertools.idempotency.IdempotencyKey;
import software.amazon.lambda.powertools.idempotency.Idempotent;

/**
 * The idempotency boundary, keyed on the order id (never the SQS message id, which differs when the
 * producer sends one order twice). Powertools records the booking under the key; a later call with the
 * same order id gets the stored booking back without reaching the partner, and a call while another is
 * in progress fails with {@code IdempotencyAlreadyInProgressException}.
 */
public class IdempotentBooking {
  private final PartnerBooking booking;
  private final OrderIdempotencyStore store;

  public IdempotentBooking(PartnerBooking booking, OrderIdempotencyStore store) {
    this.booking = booking;
    this.store = store;
  }

  /** Books the order once, its lock held until the attempt's own invocation ends. */
  public Booking bookOnce(String orderId, BookingAttempt attempt) {
    return store.lockingUntil(attempt.window().invocationEnd(), () -> book(orderId, attempt));
  }

  /** Named {@code book} for good: Powertools puts the method's name in every key (runbook: "fulfil-order.book#"). */
  @Idempotent
  Booking book(@IdempotencyKey String orderId, BookingAttempt attempt) {
    return booking.book(attempt, store.claimReplacedEarlierTry());
  }
}
