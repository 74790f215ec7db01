package com.acme.fulfil.bench.driver.crac;

/** A checkpoint hook failed; its failures are attached as suppressed exceptions. */
public class CheckpointException extends Exception {
  public CheckpointException() {
    super("a checkpoint hook failed");
  }
}
