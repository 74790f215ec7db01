package com.acme.fulfil.partner;

/**
 * Why a partner call did not produce a booking. Permanent means the same request will never succeed;
 * everything else is worth retrying later.
 */
public abstract sealed class PartnerException extends RuntimeException
    permits PartnerRejectedException, PartnerUnavailableException, PartnerOutcomeUnknownException, UnreadableBookingException {

  PartnerException(String message, Throwable cause) {
    super(message, cause);
  }

  public abstract boolean permanent();
}
