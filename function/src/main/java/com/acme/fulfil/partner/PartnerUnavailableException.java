package com.acme.fulfil.partner;

/**
 * The partner answered without booking (429, 5xx, a refused key after a refresh, an unexpected status)
 * or could not be reached before anything was sent. Nothing was booked; retry later.
 */
public final class PartnerUnavailableException extends PartnerException {
  PartnerUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public boolean permanent() {
    return false;
  }
}
