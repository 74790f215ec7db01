package com.acme.fulfil.queue;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.fulfilment.NextTry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** Each kind of failure's wait, on the deployed schedule (5 s doubling to 1,800 s, 20% jitter, 5 s past a lock). */
class RetryWaitsTest {
  private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  /** The most jitter (20% off a backoff, 20% onto a Retry-After), and none. */
  private static final RetryWaits MOST_JITTER = waits(() -> 0.999_999);
  private static final RetryWaits NO_JITTER = waits(() -> 0.0);

  private static RetryWaits waits(java.util.function.DoubleSupplier draw) {
    return new RetryWaits(TimingBudget.defaults().retrySchedule(), CLOCK, new RandomGenerator() {
      @Override
      public long nextLong() {
        throw new UnsupportedOperationException("RetryWaits draws doubles only");
      }

      @Override
      public double nextDouble() {
        return draw.getAsDouble();
      }
    });
  }

  @Test
  void aFailureNothingWasSaidAboutBacksOffByTheReceiveCountLessTheJitter() {
    NextTry lookupFailed = new NextTry.Backoff();
    assertThat(NO_JITTER.waitFor(1, lookupFailed)).contains(Duration.ofSeconds(5));
    assertThat(NO_JITTER.waitFor(4, lookupFailed)).contains(Duration.ofSeconds(40));
    assertThat(NO_JITTER.waitFor(13, lookupFailed)).contains(Duration.ofSeconds(1800));
    assertThat(MOST_JITTER.waitFor(4, lookupFailed).orElseThrow()).isBetween(Duration.ofSeconds(32), Duration.ofSeconds(33));
  }

  @Test
  void a429ReturnsAfterItsRetryAfterAtLeastTheBackoffAtMostTheLongestBackoffNeverEarlier() {
    assertThat(NO_JITTER.waitFor(1, rateLimited(1))).contains(Duration.ofSeconds(5));
    assertThat(NO_JITTER.waitFor(1, rateLimited(60))).contains(Duration.ofSeconds(60));
    assertThat(MOST_JITTER.waitFor(1, rateLimited(60)).orElseThrow()).isBetween(Duration.ofSeconds(71), Duration.ofSeconds(72));
    assertThat(MOST_JITTER.waitFor(1, rateLimited(86_400))).contains(Duration.ofSeconds(1800));
  }

  @Test
  void aLockedOrdersMessageReturnsJustAfterTheLockAndNotBeforeTheBackoff() {
    Instant lockEnd = NOW.plusSeconds(290);
    NextTry held = new NextTry.AfterLock(lockEnd);
    assertThat(MOST_JITTER.waitFor(1, held)).contains(Duration.ofSeconds(295));
    assertThat(NO_JITTER.waitFor(2, held)).contains(Duration.ofSeconds(295));
    // On the 10th receive the backoff (2,560 s capped at 1,800 s, less jitter) is the longer.
    assertThat(NO_JITTER.waitFor(10, held)).contains(Duration.ofSeconds(1800));
    NextTry lockPassed = new NextTry.AfterLock(NOW.minusSeconds(60));
    assertThat(NO_JITTER.waitFor(1, lockPassed)).contains(Duration.ofSeconds(5));
  }

  @Test
  void aTryThatCannotTellKeepsTheQueuesTimeout() {
    assertThat(NO_JITTER.waitFor(1, new NextTry.QueueTimeout())).isEmpty();
  }

  private static NextTry rateLimited(long retryAfterSeconds) {
    return new NextTry.PartnerAsked(Duration.ofSeconds(retryAfterSeconds));
  }
}
