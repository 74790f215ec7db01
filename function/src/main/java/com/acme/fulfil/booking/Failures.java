package com.acme.fulfil.booking;

/** How a failure is told in the logs and on the order's record. */
public final class Failures {
  private Failures() {}

  /** The failure and its first cause, which for AWS and partner trouble is where the reason is. */
  public static String describe(Throwable e) {
    String reason = e.getClass().getSimpleName() + ": " + e.getMessage();
    Throwable cause = e.getCause();
    return cause == null || cause == e ? reason : reason + " (" + cause.getClass().getSimpleName() + ": " + cause.getMessage() + ")";
  }
}
