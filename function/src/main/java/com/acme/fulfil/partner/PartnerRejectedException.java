package com.acme.fulfil.partner;

/** The partner's verdict (400 or 422 with its error body), or a request it can never take (413, 415): nothing booked. */
public final class PartnerRejectedException extends PartnerException {
  private final int status;
  private final String error;

  PartnerRejectedException(int status, String error) {
    super("partner rejected the order: " + status + " " + error, null, new NotBooked(status + " " + error));
    this.status = status;
    this.error = error;
  }

  public int status() {
    return status;
  }

  /** The partner's error code ({@code invalid_request}, {@code address_rejected}, ...). */
  public String error() {
    return error;
  }
}
