package com.acme.fulfil.contract.records;

/**
 * W3C Trace Context's name: the producer's message attribute that carries an order's trace, and the
 * header the partner's requests carry it on (the partner's contract allows headers it does not name).
 */
public final class TraceHeaders {
  public static final String TRACEPARENT = "traceparent";

  private TraceHeaders() {}
}
