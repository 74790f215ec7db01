package com.acme.fulfil.sim;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock a test moves by hand, so a mode window can end without waiting for it. */
final class MovableClock implements InstantSource {

  private volatile Instant now = Instant.parse("2026-11-20T14:00:00Z");

  @Override
  public Instant instant() {
    return now;
  }

  void advance(Duration duration) {
    now = now.plus(duration);
  }
}
