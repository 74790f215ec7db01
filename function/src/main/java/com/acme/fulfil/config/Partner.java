package com.acme.fulfil.config;

import com.acme.fulfil.contract.timing.TimingBudget;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The fulfilment partner as the function reaches it: its API, the secret that holds its API key, and how long an order
 * whose booking outcome is unknown stays locked, since the partner may still book it.
 *
 * @param lateBookingHold from when a try stopped waiting for the partner's answer
 */
public record Partner(URI baseUrl, String apiKeySecretId, Duration lateBookingHold) {
  /**
   * The shortest hold for a partner elsewhere: the contract's maximum plus the clock-skew allowance. A shorter one lets
   * a try book again while the partner may still carry out the last request.
   */
  public static final Duration LEAST_HOLD = TimingBudget.PARTNER_CONTRACT_MAXIMUM.plus(TimingBudget.CLOCK_SKEW_ALLOWANCE);
  /** As {@link URI#getHost()} gives them: an IPv6 literal keeps its brackets. */
  private static final Set<String> LOOPBACK_HOSTS = Set.of("127.0.0.1", "localhost", "[::1]");

  public Partner {
    Objects.requireNonNull(baseUrl, "baseUrl");
    Parts.named("apiKeySecretId", apiKeySecretId);
    Objects.requireNonNull(lateBookingHold, "lateBookingHold");
    urlProblem(baseUrl).ifPresent(problem -> Parts.refuse("baseUrl", problem));
    holdProblem(baseUrl, lateBookingHold).ifPresent(problem -> Parts.refuse("lateBookingHold", problem));
  }

  /** https, as the API key goes with every request; plain http only to a partner on this machine (tests, local). */
  static Optional<String> urlProblem(URI url) {
    boolean keyTravelsSafely = "https".equals(url.getScheme()) && url.getHost() != null
        || "http".equals(url.getScheme()) && isOnThisMachine(url);
    return keyTravelsSafely ? Optional.empty() : Optional.of("must be an https:// URL (the API key travels with every"
        + " request), got '" + url + "'; plain http:// is only for a partner on this machine (127.0.0.1, localhost, ::1)");
  }

  /**
   * At least {@link #LEAST_HOLD}. Only a partner on this machine (the local run, the tests), whose contract is scaled
   * down with their time, may be held for less, though never for no time.
   */
  static Optional<String> holdProblem(URI url, Duration hold) {
    if (!hold.isPositive()) {
      return Optional.of("must be positive, got " + hold.toMillis() + " ms");
    }
    return hold.compareTo(LEAST_HOLD) < 0 && !isOnThisMachine(url)
        ? Optional.of("must be at least " + LEAST_HOLD.toMillis() + " ms (the partner's contract maximum plus the"
            + " clock-skew allowance), got " + hold.toMillis() + " ms")
        : Optional.empty();
  }

  private static boolean isOnThisMachine(URI url) {
    return LOOPBACK_HOSTS.contains(url.getHost());
  }
}
