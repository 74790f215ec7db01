package com.acme.fulfil.booking;

/**
 * The partner rejected the order as this very message carries it, on an earlier receive whose send to the DLQ failed:
 * the message goes to the DLQ again, and the partner is not asked again.
 */
public final class RejectedBeforeException extends RuntimeException {
  /** @param reason the earlier try's reason, as its record holds it */
  RejectedBeforeException(String reason) {
    super(reason);
  }
}
