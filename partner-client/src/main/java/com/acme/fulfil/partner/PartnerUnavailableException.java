package com.acme.fulfil.partner;

import java.time.Duration;
import java.util.Optional;

/**
 * Nothing booked, retry later: the partner said so (429, a key refused), the booking request
 * never reached the network, or the call was a lookup, which never books.
 */
public final class PartnerUnavailableException extends PartnerException {
  private final Optional<Duration> retryAfter;
  private final boolean needsAPerson;

  private PartnerUnavailableException(String message, Throwable cause, NotBooked notBooked, Optional<Duration> retryAfter,
      boolean needsAPerson) {
    super(message, cause, notBooked);
    this.retryAfter = retryAfter;
    this.needsAPerson = needsAPerson;
  }

  /** A lookup that failed: it books nothing, so it needs no proof of that. */
  static PartnerUnavailableException lookupFailed(String message, Throwable cause) {
    return new PartnerUnavailableException(message, cause, null, Optional.empty(), false);
  }

  static PartnerUnavailableException neverSent(String message, Throwable cause) {
    return new PartnerUnavailableException(message, cause, new NotBooked("the request never left"), Optional.empty(), false);
  }

  /** A 429, with the wait the partner asked for when its {@code Retry-After} could be read. */
  static PartnerUnavailableException rateLimited(String message, Optional<Duration> retryAfter) {
    return new PartnerUnavailableException(message, null, new NotBooked("429"), retryAfter, false);
  }

  /**
   * The partner refused the key (its own 401, to this request) and the secret could not be read again: nothing was
   * booked, and Secrets Manager may answer the next try.
   */
  static PartnerUnavailableException keyNotReRead(String message, Throwable cause) {
    return new PartnerUnavailableException(message, cause, new NotBooked("401 invalid_api_key"), Optional.empty(), false);
  }

  /** The key was refused again after it was re-read from the secret: retrying soon only burns receives. */
  static PartnerUnavailableException keyRefused(String message) {
    return new PartnerUnavailableException(message, null, new NotBooked("401 after the key was re-read"), Optional.empty(), true);
  }

  public Optional<Duration> retryAfter() {
    return retryAfter;
  }

  /** True when nothing changes until a person acts (the key in the secret is refused). */
  public boolean needsAPerson() {
    return needsAPerson;
  }
}
