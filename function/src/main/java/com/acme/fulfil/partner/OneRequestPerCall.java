package com.acme.fulfil.partner;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Lets exactly one request of an HTTP call onto the wire. OkHttp decides follow-ups below every
 * setting we have: it sends a POST again on a 503 with {@code Retry-After: 0} even with
 * {@code retryOnConnectionFailure(false)} and redirects off, and the same layer answers 401 and 407
 * through authenticators, 3xx, 408 and 421. The partner never deduplicates, so any such follow-up
 * of a booking books a second courier with no lookup and no hold in between; and a later OkHttp may
 * add more. As a network interceptor this sees every request the call is about to write, whatever
 * decided to send it, and refuses all but the first.
 *
 * <p>A refused follow-up fails the call with {@link SecondRequestRefusedException}, an IOException, so
 * the client treats it as an exchange lost after the request went out: for a booking an unknown
 * outcome (the first request reached the partner), never "not booked"; for a lookup a transient failure.
 */
final class OneRequestPerCall implements Interceptor {

  /** The call's one request, taken by the first network request; carried as the call's original request's tag. */
  static final class Ticket {
    private final AtomicBoolean taken = new AtomicBoolean();

    private boolean take() {
      return taken.compareAndSet(false, true);
    }

    /**
     * False only while the call's request has not reached the network layer: until then no byte of it
     * can have been written, which is the one proof that a failed booking request never left.
     */
    boolean taken() {
      return taken.get();
    }
  }

  /** A follow-up this client refuses to send: the call's first request already went on the wire. */
  static final class SecondRequestRefusedException extends IOException {
    SecondRequestRefusedException(String message) {
      super(message);
    }
  }

  /** The request, ready to be sent as a call of its own, with its one request to send. */
  static Request ticketed(Request.Builder request) {
    return request.tag(Ticket.class, new Ticket()).build();
  }

  /** Whether any byte of {@code request}, made by {@link #ticketed}, may have been written to the network. */
  static boolean mayHaveLeft(Request request) {
    return request.tag(Ticket.class).taken();
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    // The call's original request, never the follow-up's: a follow-up built anew carries no tag of its own.
    Ticket ticket = chain.call().request().tag(Ticket.class);
    if (ticket == null || !ticket.take()) {
      throw new SecondRequestRefusedException("the HTTP client tried to send the call's request a second time ("
          + chain.request().method() + " after an answer it follows up); refused");
    }
    return chain.proceed(chain.request());
  }
}
