package com.acme.fulfil.partner;

import java.time.Duration;
import java.util.Optional;

/**
 * Nothing was booked: the partner said so (429, a key refused even after a refresh), the call was a
 * lookup, which never books, or the request never left (connection refused, host unknown). Retry later:
 * after the partner's {@code Retry-After} when it sent one, and not before a person fixed the key when
 * the key was refused.
 */
public final class PartnerUnavailableException extends PartnerException {
  private final Optional<Duration> retryAfter;
  private final boolean needsAPerson;

  PartnerUnavailableException(String message, Throwable cause) {
    this(message, cause, Optional.empty(), false);
  }

  private PartnerUnavailableException(String message, Throwable cause, Optional<Duration> retryAfter, boolean needsAPerson) {
    super(message, cause);
    this.retryAfter = retryAfter;
    this.needsAPerson = needsAPerson;
  }

  /** A 429: the partner asked for {@code retryAfter}, when its header could be read. */
  static PartnerUnavailableException rateLimited(String message, Optional<Duration> retryAfter) {
    return new PartnerUnavailableException(message, null, retryAfter, false);
  }

  /** The key was refused again after it was re-read from the secret: retrying soon only burns receives. */
  static PartnerUnavailableException keyRefused(String message) {
    return new PartnerUnavailableException(message, null, Optional.empty(), true);
  }

  /** How long the partner asked the caller to wait ({@code Retry-After} on a 429). */
  public Optional<Duration> retryAfter() {
    return retryAfter;
  }

  /** True when nothing changes until a person acts (the key in the secret is refused). */
  public boolean needsAPerson() {
    return needsAPerson;
  }

  @Override
  public boolean permanent() {
    return false;
  }
}
