package com.acme.fulfil.sim;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * The partner's switchable state: which key it accepts, what kind of day it has (and until when),
 * and the gate that held connections wait behind.
 */
final class PartnerConditions {

  /** A mode, the share of degraded bookings that fail, and when the mode ends by itself. */
  record Condition(PartnerMode mode, double unavailableShare, Optional<Instant> until) {}

  private static final Condition HEALTHY = new Condition(PartnerMode.HEALTHY, 0, Optional.empty());

  private final String initialKey;
  private final InstantSource clock;
  private volatile String acceptedKey;
  private volatile Condition condition = HEALTHY;
  private volatile CountDownLatch heldUntil = new CountDownLatch(1);

  PartnerConditions(String initialKey, InstantSource clock) {
    this.initialKey = requireKey(initialKey);
    this.clock = Objects.requireNonNull(clock, "clock");
    this.acceptedKey = initialKey;
  }

  Condition current() {
    Condition now = condition;
    return now.until().filter(end -> !clock.instant().isBefore(end)).isPresent() ? HEALTHY : now;
  }

  void set(PartnerMode mode, double unavailableShare, Optional<Duration> window) {
    if (unavailableShare < 0 || unavailableShare > 1) {
      throw new IllegalArgumentException("unavailableShare is a share from 0 to 1, got " + unavailableShare);
    }
    window.filter(length -> !length.isPositive()).ifPresent(length -> {
      throw new IllegalArgumentException("a window must be positive, got " + length);
    });
    condition = new Condition(mode, unavailableShare, window.map(clock.instant()::plus));
  }

  boolean accepts(Optional<String> key) {
    return key.filter(acceptedKey::equals).isPresent();
  }

  String acceptedKey() {
    return acceptedKey;
  }

  void rotateKey(String newKey) {
    acceptedKey = requireKey(newKey);
  }

  Instant now() {
    return clock.instant();
  }

  /**
   * The gate a request arriving now waits behind if it is held; opened by the next {@link
   * #releaseHeld()}. Taken at arrival, not when the hold starts, so a reset between the two still
   * releases the request.
   */
  CountDownLatch releaseGate() {
    return heldUntil;
  }

  void releaseHeld() {
    CountDownLatch released = heldUntil;
    heldUntil = new CountDownLatch(1);
    released.countDown();
  }

  void reset() {
    acceptedKey = initialKey;
    condition = HEALTHY;
    releaseHeld();
  }

  private static String requireKey(String key) {
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException("the partner needs a non-blank API key");
    }
    return key;
  }
}
