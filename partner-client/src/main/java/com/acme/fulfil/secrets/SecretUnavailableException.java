package com.acme.fulfil.secrets;

/** The key could not be read: transient for the order, which is fine and must be retried. */
public final class SecretUnavailableException extends RuntimeException {
  public SecretUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
