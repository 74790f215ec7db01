package com.acme.fulfil.local.scenario;

import com.acme.fulfil.local.TimeScale;
import java.time.Duration;
import java.util.Objects;

/**
 * One run's knobs, in local (time-scaled) time.
 *
 * @param sendSpread how long the checkout service takes to send all the orders, evenly spaced
 * @param deadline when the run stops even if some orders are unsettled
 * @param minimumRun a configuration without a DLQ never settles (its poison recycles forever): once
 *     every configuration with a DLQ has settled, the run ends, but not before this, so the incident
 *     has time to show what it does
 */
public record ScenarioSettings(
    int orders,
    double poisonShare,
    double rejectedShare,
    PartnerDay partnerDay,
    long seed,
    Duration sendSpread,
    Duration deadline,
    Duration minimumRun) {

  public ScenarioSettings {
    Objects.requireNonNull(partnerDay, "partnerDay");
    Objects.requireNonNull(sendSpread, "sendSpread");
    Objects.requireNonNull(deadline, "deadline");
    Objects.requireNonNull(minimumRun, "minimumRun");
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

  /** The spread, in local time, over which {@code orders} go out at {@code ordersPerHour} real-world orders an hour. */
  public static Duration spreadFor(int orders, long ordersPerHour, TimeScale scale) {
    if (ordersPerHour < 1) {
      throw new IllegalArgumentException("the rate must be at least 1 order an hour, got " + ordersPerHour);
    }
    return scale.toLocal(Duration.ofMillis(Math.round(orders * 3_600_000.0 / ordersPerHour)));
  }

  /** The real-world orders an hour this run offers: its orders, evenly spread over the sending. */
  public long offeredOrdersPerHour(TimeScale scale) {
    double hours = scale.toReal(sendSpread).toMillis() / 3_600_000.0;
    return hours == 0 ? orders : Math.round(orders / hours);
  }
}
