package com.acme.fulfil.local.scenario;

import java.time.Duration;
import java.util.Objects;

/**
 * One run's knobs, in local (time-scaled) time.
 *
 * @param sendSpread how long the checkout service takes to send all the orders, evenly spaced
 * @param deadline when the run stops even if some orders are unsettled (the incident's never settle)
 */
public record ScenarioSettings(
    int orders,
    double poisonShare,
    double rejectedShare,
    PartnerDay partnerDay,
    long seed,
    Duration sendSpread,
    Duration deadline) {

  public ScenarioSettings {
    Objects.requireNonNull(partnerDay, "partnerDay");
    Objects.requireNonNull(sendSpread, "sendSpread");
    Objects.requireNonNull(deadline, "deadline");
    if (orders < 1) {
      throw new IllegalArgumentException("orders must be at least 1, got " + orders);
    }
    if (poisonShare < 0 || poisonShare > 1 || rejectedShare < 0 || rejectedShare > 1) {
      throw new IllegalArgumentException("shares are fractions from 0 to 1");
    }
    if (!deadline.isPositive() || sendSpread.isNegative() || deadline.compareTo(sendSpread) <= 0) {
      throw new IllegalArgumentException("the deadline (" + deadline.toSeconds() + " s) must come after the sending ("
          + sendSpread.toSeconds() + " s)");
    }
  }
}
