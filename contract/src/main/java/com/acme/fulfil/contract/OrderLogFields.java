package com.acme.fulfil.contract;

/**
 * Fields of the function's JSON log lines that on-call's tools read: the function writes them,
 * {@code ./fulfil-ops} reads them, so both take the names from here.
 */
public final class OrderLogFields {
  /** When a failed try's message returns to the queue for the order's next try, ISO-8601 UTC. */
  public static final String NEXT_TRY_AT = "next_try_at";

  private OrderLogFields() {}
}
