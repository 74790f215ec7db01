package com.acme.fulfil.partner;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Lets exactly one request of an HTTP call onto the wire, and nothing of it after the call ends. OkHttp sends
 * follow-ups below every setting we have (a POST again on a 503 with {@code Retry-After: 0} even without retries or
 * redirects; 401, 407, 3xx, 408, 421), and the partner never deduplicates: a second courier, no lookup between. As a
 * network interceptor this sees every request the call is about to write, whatever sent it, and refuses all but the
 * first with an IOException: a booking so refused has an unknown outcome, its first request having reached the partner.
 */
final class OneRequestPerCall implements Interceptor {

  /** The call's one request, taken by its first network request; carried as the tag of the call's original request. */
  private static final class Ticket extends AtomicBoolean {}

  /** A follow-up this client refuses to send: the call's first request already went on the wire. */
  static final class SecondRequestRefusedException extends IOException {
    SecondRequestRefusedException(String message) {
      super(message);
    }
  }

  static Request ticketed(Request.Builder request) {
    return request.tag(Ticket.class, new Ticket()).build();
  }

  /**
   * Whether any byte of {@code request}, made by {@link #ticketed}, may have been written: false only while it has not
   * reached the network layer, the one proof that a failed booking request never left.
   */
  static boolean mayHaveLeft(Request request) {
    return request.tag(Ticket.class).get();
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    // The call's original request, never the follow-up's: a follow-up built anew carries no tag of its own.
    Ticket ticket = chain.call().request().tag(Ticket.class);
    if (ticket == null || !ticket.compareAndSet(false, true)) {
      throw new SecondRequestRefusedException("the HTTP client tried to send the call's request a second time ("
          + chain.request().method() + " after an answer it follows up); refused");
    }
    // A reset on close (SO_LINGER 0) drops what the kernel had not delivered, where a graceful close retransmits it for
    // minutes, through a partition or a frozen environment: the late-booking hold counts from when the try stopped
    // waiting. Set before any byte of the request is written; a TLS socket passes it to the TCP socket under it.
    chain.connection().socket().setSoLinger(true, 0);
    return chain.proceed(chain.request());
  }
}
