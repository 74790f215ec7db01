package com.acme.fulfil.contract;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How long the first deploy waits, after the old setup's event source mapping is disabled, before
 * anything may look an order up (docs/deploy.md, "First deploy: cutover from the old setup").
 *
 * <p>The old function keeps no record of ours, so the partner's ledger is all a new try can read, and a
 * lookup proves "not booked" only once no booking of an old try can still appear. Disabling a mapping
 * lets the invocations already running finish, so an old try may send its booking request until its
 * function timeout after the mapping was disabled; the partner may book up to its contract's maximum
 * after receiving it; and the clocks may disagree by the skew allowance (the last two are the
 * {@link TimingBudget#lateBookingHold() late-booking hold}).
 *
 * @param oldFunctionTimeout the old function's timeout, as Lambda reports it for the function being replaced
 * @param lateBookingHold the partner's contract maximum plus the clock-skew allowance
 */
public record CutoverQuietTime(Duration oldFunctionTimeout, Duration lateBookingHold) {

  public CutoverQuietTime {
    Objects.requireNonNull(oldFunctionTimeout, "oldFunctionTimeout");
    Objects.requireNonNull(lateBookingHold, "lateBookingHold");
    if (!oldFunctionTimeout.isPositive() || lateBookingHold.isNegative()) {
      throw new IllegalArgumentException("the old function's timeout must be positive and the late-booking hold not"
          + " negative, got " + oldFunctionTimeout + " and " + lateBookingHold);
    }
  }

  /** The wait for an old function of {@code oldFunctionTimeout}, with the hold of the budget about to be deployed. */
  public static CutoverQuietTime of(Duration oldFunctionTimeout, TimingBudget budget) {
    return new CutoverQuietTime(oldFunctionTimeout, budget.lateBookingHold());
  }

  /** From the moment the old mapping reads Disabled to the first lookup allowed. */
  public Duration length() {
    return oldFunctionTimeout.plus(lateBookingHold);
  }

  /** The first moment a new try may look an order up, for a mapping that reached Disabled at {@code disabledAt}. */
  public Instant lookupsSafeFrom(Instant disabledAt) {
    return disabledAt.plus(length());
  }
}
