package com.acme.fulfil.contract.timing;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How long the first deploy waits, after the old setup's event source mapping is disabled, before
 * anything may look an order up (docs/deploy.md, "First deploy: cutover from the old setup").
 *
 * <p>The old function keeps no record of ours, so the partner's ledger is all a new try can read, and a
 * lookup proves "not booked" only once no booking of an old try can still appear. Disabling a mapping
 * lets the invocations already running finish, and a batch it received just before may still be handed to
 * the function: Lambda retries a throttled invocation "until the message's timestamp exceeds your queue's
 * visibility timeout" (Lambda, "Handling errors for an SQS event source"). So an old try may start up to the
 * queue's visibility timeout after the mapping was disabled and send its booking request until its function
 * timeout after that; the partner may book up to its contract's maximum after receiving it; and the clocks
 * may disagree by the skew allowance (the last two are the {@link TimingBudget#lateBookingHold() late-booking
 * hold}).
 *
 * @param oldQueueVisibility the queue's visibility timeout while the old mapping read it
 * @param oldFunctionTimeout the old function's timeout, as Lambda reports it for the function being replaced
 * @param lateBookingHold the partner's contract maximum plus the clock-skew allowance
 */
public record CutoverQuietTime(Duration oldQueueVisibility, Duration oldFunctionTimeout, Duration lateBookingHold) {

  public CutoverQuietTime {
    Objects.requireNonNull(oldQueueVisibility, "oldQueueVisibility");
    Objects.requireNonNull(oldFunctionTimeout, "oldFunctionTimeout");
    Objects.requireNonNull(lateBookingHold, "lateBookingHold");
    if (oldQueueVisibility.isNegative() || !oldFunctionTimeout.isPositive() || lateBookingHold.isNegative()) {
      throw new IllegalArgumentException("the old queue's visibility timeout and the late-booking hold must not be"
          + " negative and the old function's timeout must be positive, got " + oldQueueVisibility + ", "
          + oldFunctionTimeout + " and " + lateBookingHold);
    }
  }

  /** The wait for the old setup's queue and function, with the hold of the budget about to be deployed. */
  public static CutoverQuietTime of(Duration oldQueueVisibility, Duration oldFunctionTimeout, TimingBudget budget) {
    return new CutoverQuietTime(oldQueueVisibility, oldFunctionTimeout, budget.lateBookingHold());
  }

  /** From the moment the old mapping reads Disabled to the first lookup allowed. */
  public Duration length() {
    return oldQueueVisibility.plus(oldFunctionTimeout).plus(lateBookingHold);
  }

  /** The first moment a new try may look an order up, for a mapping that reached Disabled at {@code disabledAt}. */
  public Instant lookupsSafeFrom(Instant disabledAt) {
    return disabledAt.plus(length());
  }
}
