package com.acme.fulfil.system.harness;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waiting for the system to get somewhere. Only a wait, never a verdict: the test asserts on what the
 * partner, queue or table hold afterwards, so a timeout fails with the state it found.
 */
public final class Await {
  private static final Duration EVERY = Duration.ofMillis(100);

  private Await() {}

  /** True once {@code condition} holds, false if {@code timeout} passed first. */
  public static boolean until(Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      try {
        Thread.sleep(EVERY);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }
}
