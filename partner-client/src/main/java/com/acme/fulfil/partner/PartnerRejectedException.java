package com.acme.fulfil.partner;

/** The partner's verdict (400 or 422 with an error code the contract gives that status): nothing booked. */
public final class PartnerRejectedException extends PartnerException {
  /** @param error the partner's error code ({@code invalid_request}, {@code address_rejected}, ...) */
  PartnerRejectedException(int status, String error) {
    super("partner rejected the order: " + status + " " + error, null, new NotBooked(status + " " + error));
  }
}
