package com.acme.fulfil.sim;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * What the simulated partner does with one request instead of its normal service, when a test
 * scripts it through {@link PartnerScript}.
 *
 * <p>Five reactions book (they exist for POST only); the {@link Fault}s book nothing and may answer
 * a lookup too. Delays here are real time: the time-scale divisor applies to the latency model,
 * not to what a test asks for explicitly.
 */
public sealed interface Reaction {

  /** A reaction that books nothing; the only kind a lookup can be scripted with. */
  sealed interface Fault extends Reaction permits Hang, Drop, ServerError, RateLimited, Rejected, AnotherOrdersShipment, Answer, Listing, Garbled {}

  /** Books after {@code delay} and answers 201: the "answer after the caller gave up" case. */
  record BookAfter(Duration delay) implements Reaction {
    public BookAfter {
      Objects.requireNonNull(delay, "delay");
      if (delay.isNegative()) {
        throw new IllegalArgumentException("delay must not be negative, got " + delay);
      }
    }
  }

  /**
   * Books once {@code ready} holds, or after {@code atMost}, and answers 201: for a test that needs something to
   * happen while a booking is in flight (a second delivery of the same message), without guessing how long it takes.
   */
  record BookWhen(BooleanSupplier ready, Duration atMost) implements Reaction {}

  /**
   * Books at once, then never answers: the connection is held until the client gives up (and
   * released, without a response, on {@link SimulatedPartner#reset()} or close).
   */
  record BookThenHang() implements Reaction {}

  /** Books at once, then closes the connection without a status line. */
  record BookThenDrop() implements Reaction {}

  /**
   * Answers as {@code answer} at once (a gateway's 504, a dropped connection), while the partner's
   * backend goes on and books {@code bookAfter} later: the answer says nothing about the booking.
   */
  record LateBooking(Fault answer, Duration bookAfter) implements Reaction {
    public LateBooking {
      Objects.requireNonNull(answer, "answer");
      Objects.requireNonNull(bookAfter, "bookAfter");
    }
  }

  /** Books nothing and answers 200 with a shipment of another order (a lookup gone wrong somewhere). */
  record AnotherOrdersShipment() implements Fault {}

  /**
   * Books nothing and answers {@code status} with {@code body} exactly as given (JSON or not): an answer
   * the contract does not promise, from the partner or something in front of it.
   */
  record Answer(int status, String body) implements Fault {
    public Answer {
      if (status < 200 || status > 599) {
        throw new IllegalArgumentException("a final HTTP status is 200-599, got " + status);
      }
      Objects.requireNonNull(body, "body");
    }
  }

  /**
   * A lookup's answer: 200 listing the order's bookings as the ledger has them, each twice if
   * {@code duplicates}, after {@code extras}: raw JSON entries in which {@code {order_id}} stands for the
   * order looked up (another order's shipment, or one of this order's the partner wrote badly).
   */
  record Listing(java.util.List<String> extras, boolean duplicates) implements Fault {
    public static final String ORDER_ID = "{order_id}";

    public Listing {
      extras = java.util.List.copyOf(extras);
    }
  }

  /**
   * Books nothing and answers a status line no HTTP client can read, its code negative: what a gateway
   * gone wrong may send, and what the client's library refuses with an exception of its own.
   */
  record Garbled(int status) implements Fault {
    public Garbled {
      if (status >= 0) {
        throw new IllegalArgumentException("a garbled status line carries a negative code, got " + status);
      }
    }
  }

  /** Books nothing and never answers (held like {@link BookThenHang}). */
  record Hang() implements Fault {}

  /** Books nothing and closes the connection without a status line. */
  record Drop() implements Fault {}

  /** Books nothing and answers a 5xx at once. */
  record ServerError(int status) implements Fault {
    public ServerError {
      if (status < 500 || status > 599) {
        throw new IllegalArgumentException("a server error is a 5xx status, got " + status);
      }
    }
  }

  /** Books nothing and answers 429 with {@code Retry-After: retryAfterSeconds}. */
  record RateLimited(int retryAfterSeconds) implements Fault {
    public RateLimited {
      if (retryAfterSeconds < 0) {
        throw new IllegalArgumentException("Retry-After must not be negative, got " + retryAfterSeconds);
      }
    }
  }

  /** Books nothing and answers a permanent 400 or 422 with the contract's error body. */
  record Rejected(int status, String error, String message) implements Fault {
    public Rejected {
      if (status != 400 && status != 422) {
        throw new IllegalArgumentException("the partner rejects with 400 or 422, got " + status);
      }
      Objects.requireNonNull(error, "error");
      Objects.requireNonNull(message, "message");
    }
  }

  static Reaction bookAfter(Duration delay) {
    return new BookAfter(delay);
  }

  static Reaction bookThenHang() {
    return new BookThenHang();
  }

  static Reaction bookThenDrop() {
    return new BookThenDrop();
  }

  static Reaction lateBooking(Fault answer, Duration bookAfter) {
    return new LateBooking(answer, bookAfter);
  }

  static Fault anotherOrdersShipment() {
    return new AnotherOrdersShipment();
  }

  static Fault hang() {
    return new Hang();
  }

  static Fault drop() {
    return new Drop();
  }

  static Fault serverError(int status) {
    return new ServerError(status);
  }

  static Fault unavailable() {
    return new ServerError(503);
  }

  static Fault rateLimited(int retryAfterSeconds) {
    return new RateLimited(retryAfterSeconds);
  }

  static Fault invalidRequest(String message) {
    return new Rejected(400, "invalid_request", message);
  }

  static Fault addressRejected() {
    return new Rejected(422, "address_rejected", "the courier could not validate the delivery address");
  }

  static Fault unsupportedDestination() {
    return new Rejected(422, "unsupported_destination", "no courier serves the destination country");
  }
}
