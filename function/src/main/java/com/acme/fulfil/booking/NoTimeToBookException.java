package com.acme.fulfil.booking;

/** Not started: the invocation has too little time left. Nothing was sent; the message comes back. */
public final class NoTimeToBookException extends RuntimeException {
  NoTimeToBookException(String message) {
    super(message);
  }
}
