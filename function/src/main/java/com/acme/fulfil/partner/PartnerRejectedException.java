package com.acme.fulfil.partner;

/** 400 or 422: the partner will never accept this order as it is. */
public final class PartnerRejectedException extends PartnerException {
  private final int status;
  private final String error;

  PartnerRejectedException(int status, String error) {
    super("partner rejected the order: " + status + " " + error, null);
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

  @Override
  public boolean permanent() {
    return true;
  }
}
