package com.acme.fulfil.sim;

/** The partner's day, as {@link SimulatedPartner} plays it. */
public enum PartnerMode {
  /** Latencies from the model's healthy shape; every valid booking succeeds. */
  HEALTHY,
  /** Bookings take tail latencies and a configured share of them answer 503 quickly. */
  DEGRADED,
  /** Every request answers 503 at once. */
  OUTAGE
}
