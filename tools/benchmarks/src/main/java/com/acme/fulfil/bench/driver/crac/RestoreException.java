package com.acme.fulfil.bench.driver.crac;

/** A restore hook failed; its failures are attached as suppressed exceptions. */
public class RestoreException extends Exception {
  public RestoreException() {
    super("a restore hook failed");
  }
}
