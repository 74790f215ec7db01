package com.acme.fulfil.partner;

import java.util.Optional;

/** Why a partner call did not produce a booking: the only exceptions {@link PartnerApi} throws. */
public abstract sealed class PartnerException extends RuntimeException
    permits PartnerRejectedException, PartnerUnavailableException, PartnerOutcomeUnknownException, UnreadableBookingException {
  private final NotBooked notBooked;

  PartnerException(String message, Throwable cause, NotBooked notBooked) {
    super(message, cause);
    this.notBooked = notBooked;
  }

  /** The proof that the booking request this ended left nothing booked; empty when nothing proves it. */
  public final Optional<NotBooked> notBooked() {
    return Optional.ofNullable(notBooked);
  }
}
