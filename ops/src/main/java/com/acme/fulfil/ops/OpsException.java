package com.acme.fulfil.ops;

/** Something on-call must fix before the command can run, said in one sentence. */
final class OpsException extends RuntimeException {
  OpsException(String message) {
    super(message);
  }

  OpsException(String message, Throwable cause) {
    super(message, cause);
  }
}
