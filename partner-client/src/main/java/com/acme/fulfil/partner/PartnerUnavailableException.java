package com.acme.fulfil.partner;

import java.time.Duration;
import java.util.Optional;

/**
 * Nothing booked, retry later: the partner said so (429, a key refused), the booking request
 * never reached the network, or the call was a lookup, which never books.
 */
public final class PartnerUnavailableException extends PartnerException {
  private final Optional<Duration> retryAfter;

  private PartnerUnavailableException(String message, Throwable cause, NotBooked notBooked, Optional<Duration> retryAfter) {
    super(message, cause, notBooked);
    this.retryAfter = retryAfter;
  }

  /** A lookup that failed: it books nothing, so it needs no proof of that. */
  static PartnerUnavailableException lookupFailed(String message, Throwable cause) {
    return new PartnerUnavailableException(message, cause, null, Optional.empty());
  }

  static PartnerUnavailableException neverSent(String message, Throwable cause) {
    return new PartnerUnavailableException(message, cause, new NotBooked("the request never left"), Optional.empty());
  }

  /** A 429, with the wait the partner asked for when its {@code Retry-After} could be read. */
  static PartnerUnavailableException rateLimited(String message, Optional<Duration> retryAfter) {
    return new PartnerUnavailableException(message, null, new NotBooked("429"), retryAfter);
  }

  /**
   * The partner refused the key (its own 401, to this request) and the secret could not be read again: nothing was
   * booked, and Secrets Manager may answer the next try.
   */
  static PartnerUnavailableException keyNotReRead(String message, Throwable cause) {
    return new PartnerUnavailableException(message, cause, new NotBooked("401 invalid_api_key"), Optional.empty());
  }

  /**
   * The key was refused again after it was re-read from the secret: nothing was booked, and nothing changes until the
   * secret holds the partner's new key. The backoff retries it: soon after a rotation, which then books it at once,
   * and further apart the longer nobody acts, while its failures page (partner-failing) with these words.
   */
  static PartnerUnavailableException keyRefused(String message) {
    return new PartnerUnavailableException(message, null, new NotBooked("401 after the key was re-read"), Optional.empty());
  }

  public Optional<Duration> retryAfter() {
    return retryAfter;
  }
}
