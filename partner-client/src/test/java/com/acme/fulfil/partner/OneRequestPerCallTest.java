package com.acme.fulfil.partner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.acme.fulfil.partner.WirePartner.WireAnswer;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No layer below {@link PartnerClient} puts a second request on the wire for one call, whatever the
 * answer invites: every status from 100 to 599, with and without {@code Retry-After: 0} (OkHttp's own
 * retry of a 503), {@code Location} (a redirect) and {@code Connection: close}, to a booking and a
 * lookup, counted by a raw loopback partner. The one second request is PartnerClient's own, after a
 * 401: it re-reads the key and sends once more, as the contract says (a 401 books nothing).
 */
class OneRequestPerCallTest {
  private static final String ORDER = "ORD-ONE-REQUEST";
  private static final ShipmentRequest BOOKING = TestOrder.booking(ORDER);
  @AutoClose
  private static final WiredPartnerClient partner = WiredPartnerClient.start();
  private static final WirePartner wire = partner.wire();
  private static final PartnerClient client = partner.client();

  static IntStream statuses() {
    return IntStream.rangeClosed(100, 599);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("statuses")
  void oneRequestOnTheWireForEveryAnswer(int status) {
    for (int headers = 0; headers < 8; headers++) {
      boolean retryAfter = (headers & 1) != 0;
      boolean location = (headers & 2) != 0;
      boolean close = (headers & 4) != 0;
      String shape = status + (retryAfter ? " Retry-After: 0" : "") + (location ? " Location" : "") + (close ? " Connection: close" : "");

      wire.answerWith(request -> answer(status, retryAfter, location, close, request.requestId()));
      Throwable booking = catchThrowable(() -> client.book(BOOKING, "attempt", Optional.empty(), Deadline.in(Duration.ofSeconds(10))));
      assertThat(wire.received()).as("requests on the wire for a booking answered " + shape).hasSizeLessThanOrEqualTo(allowed(status));
      assertThat(booking).as("the booking answered " + shape).isExactlyInstanceOf(expectedForBooking(status));

      wire.answerWith(request -> answer(status, retryAfter, location, close, request.requestId()));
      Throwable lookup = catchThrowable(() -> client.lookup(ORDER, "attempt", Optional.empty(), Deadline.in(Duration.ofSeconds(10))));
      // A lookup, which books nothing, goes again once on a fresh connection after an exchange that brought no answer.
      assertThat(wire.received()).as("requests on the wire for a lookup answered " + shape).hasSizeLessThanOrEqualTo(2 * allowed(status));
      assertThat(lookup).as("a lookup books nothing: every failure is transient (" + shape + ")")
          .isExactlyInstanceOf(PartnerUnavailableException.class);
    }
  }

  /**
   * One; two after a 401, PartnerClient's own second call with the key re-read. Fewer happens, here after
   * a 101 (a switch of protocols nobody asked for): the next call fails on that connection before the
   * partner reads anything, a lost exchange like any other (an unknown outcome for a booking).
   */
  private static int allowed(int status) {
    return status == 401 ? 2 : 1;
  }

  /**
   * docs/partner-api.md's table for an answer with the body the contract gives its status ({@link #body}). A 1xx is
   * never a final answer: the client waits on for one, and the connection closing instead leaves the booking's outcome
   * unknown.
   */
  private static Class<? extends PartnerException> expectedForBooking(int status) {
    return switch (status) {
      case 400, 422 -> PartnerRejectedException.class;
      case 401, 429 -> PartnerUnavailableException.class;
      default -> PartnerOutcomeUnknownException.class;
    };
  }

  /** The contract's error body for the statuses it lists one for; none for the others. */
  private static String body(int status) {
    return switch (status) {
      case 400 -> "{\"error\":\"invalid_request\"}";
      case 422 -> "{\"error\":\"address_rejected\"}";
      case 401 -> "{\"error\":\"invalid_api_key\"}";
      case 429 -> "{\"error\":\"rate_limited\"}";
      default -> "";
    };
  }

  /**
   * The answer's bytes. After a 1xx the partner closes the connection: an informational answer is all
   * the client gets, and it must not wait on until the deadline.
   */
  private static WireAnswer answer(int status, boolean retryAfter, boolean location, boolean close, String requestId) {
    StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(" Whatever\r\n");
    head.append("X-Request-Id: ").append(requestId).append("\r\n");
    if (retryAfter) {
      head.append("Retry-After: 0\r\n");
    }
    if (location) {
      head.append("Location: /v1/shipments\r\n");
    }
    if (close) {
      head.append("Connection: close\r\n");
    }
    boolean informational = status < 200;
    String body = informational ? "" : body(status);
    if (!informational) {
      head.append("Content-Length: ").append(body.length()).append("\r\n");
    }
    return WireAnswer.of(head.append("\r\n").append(body).toString(), close || informational);
  }
}
