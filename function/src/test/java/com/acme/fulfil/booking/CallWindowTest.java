package com.acme.fulfil.booking;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.partner.Deadline;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CallWindowTest {
  private final AtomicLong remainingMillis = new AtomicLong(300_000);
  private final CallWindow window = new CallWindow(Clock.systemUTC(), remainingMillis::get, Duration.ofSeconds(10),
      Duration.ofSeconds(280), Duration.ofSeconds(5));

  @Test
  void partnerGetsTheRemainingTimeMinusTheMargin() {
    remainingMillis.set(299_500);
    assertThat(window.usable()).isEqualTo(Duration.ofMillis(289_500));
    assertThat(deadline(window.forBooking()).remaining()).isBetween(Duration.ofMillis(289_000), Duration.ofMillis(289_500));
  }

  @Test
  void bookingThatCouldNotFinishIsNotStarted() {
    remainingMillis.set(289_999);
    assertThat(window.forBooking()).isInstanceOfSatisfying(CallWindow.NoTime.class,
        noTime -> assertThat(noTime.reason()).contains("only 279999 ms left"));
  }

  @Test
  void lookupIsCappedByItsOwnTimeoutAndByTheMargin() {
    assertThat(deadline(window.forLookup()).remaining()).isLessThanOrEqualTo(Duration.ofSeconds(5));
    remainingMillis.set(12_000);
    assertThat(deadline(window.forLookup()).remaining()).isLessThanOrEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void nothingIsCalledInsideTheMargin() {
    remainingMillis.set(9_000);
    assertThat(window.usable()).isEqualTo(Duration.ZERO);
    assertThat(window.forLookup()).isInstanceOf(CallWindow.NoTime.class);
  }

  private static Deadline deadline(CallWindow.CallTime time) {
    return ((CallWindow.Until) time).deadline();
  }
}
