package com.acme.fulfil.booking;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** What one try at booking an order came to ({@link OnceOnlyBooking#book}); only our own bugs are thrown. */
public sealed interface BookingResult {

  /** The order's booking: this try's, booked or adopted, or an earlier try's ({@link Booking#madeBy} tells). */
  record Booked(Booking booking) implements BookingResult {}

  /**
   * Another try holds the order; this one sent nothing. {@code until}: when that try's lock ends, as the order's record
   * says; empty when another try took the order over before this one could send its booking request.
   */
  record HeldElsewhere(Optional<Instant> until) implements BookingResult {}

  /**
   * The partner rejected the order as this message carries it: now, or on an earlier receive of this very message
   * whose send to the DLQ failed, and then the partner is not asked again. {@code reason}: the partner's verdict.
   */
  record Rejected(String reason) implements BookingResult {}

  /**
   * A booking request may have left and nothing proves it booked nothing: the partner may still book, so the order is
   * held until {@code heldUntil}, and its message must wait as long.
   */
  record Unconfirmed(Instant heldUntil, String reason) implements BookingResult {}

  /**
   * Worth another try later, and nothing of this one can book the order unseen: nothing was sent, the partner proved
   * it booked nothing, or (DynamoDB failing to record a booking) the claim's lock keeps the order until it runs out,
   * which the next try finds and waits for. The message returns after {@code partnerAsked} (a 429's
   * {@code Retry-After}), else after a backoff.
   */
  record TryLater(String reason, Optional<Duration> partnerAsked) implements BookingResult {}
}
