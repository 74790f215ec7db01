package com.acme.fulfil.partner;

/**
 * Nothing was booked: the partner said so (429, a key refused even after a refresh), the call was a
 * lookup, which never books, or the request never left (connection refused, host unknown). Retry later.
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
