package com.acme.fulfil.sim;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

/** No latency, but counts which shape the partner asked for. */
final class CountingLatency implements LatencyModel {

  final AtomicInteger healthyBookings = new AtomicInteger();
  final AtomicInteger degradedBookings = new AtomicInteger();

  @Override
  public Duration booking(RandomGenerator random) {
    healthyBookings.incrementAndGet();
    return Duration.ZERO;
  }

  @Override
  public Duration degradedBooking(RandomGenerator random) {
    degradedBookings.incrementAndGet();
    return Duration.ZERO;
  }

  @Override
  public Duration lookup(RandomGenerator random) {
    return Duration.ZERO;
  }
}
