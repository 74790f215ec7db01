package com.acme.fulfil.fulfilment;

import java.time.Duration;
import java.time.Instant;

/** What a failed try knows about when its order may be tried again: the message's wait follows from it. */
public sealed interface NextTry {

  /** Nothing was booked and nobody said when to come back: back off by the message's receive count. */
  record Backoff() implements NextTry {}

  /** Nothing was booked and the partner asked for {@code retryAfter} (429 with {@code Retry-After}). */
  record PartnerAsked(Duration retryAfter) implements NextTry {}

  /** A try that may still book the order (this one, or the one its record names) locks it until {@code lockEnd}. */
  record AfterLock(Instant lockEnd) implements NextTry {}

  /** Only the visibility timeout will do: a person must act first (key refused), or the order's lock is unknown. */
  record QueueTimeout() implements NextTry {}
}
