package com.acme.fulfil.sim;

import java.time.Duration;
import java.time.Instant;

/**
 * A latency the partner drew from its model and waited out before answering a request: its share of
 * what the caller waited. It is the model's time divided by the time-scale divisor, whatever the
 * machine, so a report can tell it apart from the caller's own work, which a slower machine stretches.
 *
 * @param method {@code POST} (booking) or {@code GET} (lookup)
 * @param orderId the request's order
 * @param began when the partner began to wait
 * @param took the latency drawn, scaled
 */
public record PartnerLatency(String method, String orderId, Instant began, Duration took) {

  /** When the partner was done waiting and answered. */
  public Instant ended() {
    return began.plus(took);
  }
}
