package com.acme.fulfil.fulfilment;

import java.time.Duration;
import java.time.Instant;

/** What a failed try knows about when its order may be tried again: the message's wait follows from it. */
public sealed interface NextTry {

  /**
   * Nothing was booked and nobody said when to come back (a lookup failed, the request never left,
   * Secrets Manager or DynamoDB failed before the booking request, no time to book): back off by the
   * message's receive count.
   */
  record Backoff() implements NextTry {}

  /** Nothing was booked and the partner asked for {@code retryAfter} (429 with {@code Retry-After}). */
  record PartnerAsked(Duration retryAfter) implements NextTry {}

  /**
   * A try that may still book the order keeps it locked until {@code lockEnd}: this try's unanswered
   * booking request, or the other try the order's record names.
   */
  record AfterLock(Instant lockEnd) implements NextTry {}

  /**
   * Only the queue's visibility timeout will do: a person must act first (the key is refused), or the
   * try cannot tell when the order is free (another try took it over and its lock is unknown, our own bug).
   */
  record QueueTimeout() implements NextTry {}
}
