package com.acme.fulfil.partner;

import static com.acme.fulfil.partner.WirePartner.answer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.acme.fulfil.partner.WirePartner.Received;
import com.acme.fulfil.partner.WirePartner.WireAnswer;
import com.acme.fulfil.secrets.ApiKeySource;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A proof counts only if it answers our own request (docs/partner-api.md, Connection): over a raw loopback
 * socket, the bytes an intermediary could leave on a connection (a second complete answer after a correct one,
 * an answer for an earlier request, one served from a cache) free no order and resend nothing.
 */
class BoundAnswersTest {
  private static final String ORDER = "ORD-BOUND";
  private static final String EMPTY = "{\"shipments\":[]}";
  private static final String BOOKED = "{\"shipment_id\":\"SHP-1\",\"order_id\":\"" + ORDER + "\",\"courier\":\"DPD\","
      + "\"tracking_number\":\"T1\",\"label_url\":\"https://l/1.pdf\"}";
  private static final ShipmentRequest REQUEST = TestOrder.booking(ORDER);
  @AutoClose
  private static final WiredPartnerClient partner = WiredPartnerClient.start();
  private static final WirePartner wire = partner.wire();
  private static final PartnerClient client = partner.client();

  @BeforeEach
  void noConnectionFromAnEarlierTest() {
    partner.http().connectionPool().evictAll();
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(10));
  }

  private static List<Received> posts() {
    return wire.received().stream().filter(r -> r.method().equals("POST")).toList();
  }

  /**
   * The reproduction: the lookup's answer is correct and a second complete answer follows it on the same
   * connection, as a proxy that ran two answers together sends; the partner books the booking request it receives.
   * Whatever the stray answer says (here it even echoes the lookup's id), the booking request's answer is the partner's.
   */
  @ParameterizedTest(name = "a stray {0} after the lookup's answer")
  @ValueSource(strings = {"429", "401", "400"})
  void aStrayAnswerLeftAfterTheLookupsAnswerNeitherFreesNorResendsTheBooking(String stray) {
    wire.answerWith(request -> request.method().equals("GET")
        ? WireAnswer.of(answer(200, request.requestId(), EMPTY) + strayAnswer(stray, request.requestId()), false)
        : WireAnswer.of(answer(201, request.requestId(), BOOKED), false));

    assertThat(client.lookup(ORDER, "attempt", Optional.empty(), deadline())).isEmpty();
    AtomicReference<Shipment> booked = new AtomicReference<>();
    Throwable failure = catchThrowable(() -> booked.set(client.book(REQUEST, "attempt", Optional.empty(), deadline())));

    assertThat(posts()).as("booking requests on the wire").hasSize(1);
    assertThat(failure).as("the partner booked: what the try made of it").isNull();
    assertThat(booked.get().shipmentId()).isEqualTo("SHP-1");
  }

  private static String strayAnswer(String status, String requestId) {
    return switch (status) {
      case "429" -> answer(429, requestId, "{\"error\":\"rate_limited\"}", "Retry-After: 30");
      case "401" -> answer(401, requestId, "{\"error\":\"invalid_api_key\"}");
      case "400" -> answer(400, requestId, "{\"error\":\"invalid_request\"}");
      default -> throw new IllegalArgumentException(status);
    };
  }

  /** The answers that would prove "not booked", each echoing no id, another request's, or ours twice. */
  @ParameterizedTest(name = "echo: {0}")
  @ValueSource(strings = {"none", "another request's", "ours twice", "ours in another case"})
  void anAnswerThatDoesNotEchoOurRequestIdProvesNothing(String echo) {
    for (String proof : List.of("429", "401", "400")) {
      wire.answerWith(request -> WireAnswer.of(echoed(strayAnswer(proof, "PLACEHOLDER"), echo, request.requestId()), false));
      Throwable failure = catchThrowable(() -> client.book(REQUEST, "attempt", Optional.empty(), deadline()));
      assertThat(failure).as("a booking answered %s with %s id", proof, echo).isExactlyInstanceOf(PartnerOutcomeUnknownException.class);
      assertThat(posts()).as("booking requests after a %s with %s id", proof, echo).hasSize(1);
    }
    wire.answerWith(request -> WireAnswer.of(echoed(answer(200, "PLACEHOLDER", EMPTY), echo, request.requestId()), false));
    Throwable lookup = catchThrowable(() -> client.lookup(ORDER, "attempt", Optional.empty(), deadline()));
    assertThat(lookup).as("a lookup answered with %s id", echo).isExactlyInstanceOf(PartnerUnavailableException.class);
  }

  private static String echoed(String answer, String echo, String ours) {
    return switch (echo) {
      case "none" -> answer.replace("X-Request-Id: PLACEHOLDER\r\n", "");
      case "another request's" -> answer.replace("PLACEHOLDER", "attempt-0123");
      case "ours twice" -> answer.replace("X-Request-Id: PLACEHOLDER\r\n", "X-Request-Id: " + ours + "\r\nX-Request-Id: " + ours + "\r\n");
      case "ours in another case" -> answer.replace("PLACEHOLDER", ours.toUpperCase(Locale.ROOT));
      default -> throw new IllegalArgumentException(echo);
    };
  }

  @Test
  void everyRequestCarriesAnIdOfItsOwnTheKeysSecondRequestToo() {
    wire.answerWith(request -> request.method().equals("GET") ? WireAnswer.of(answer(200, request.requestId(), EMPTY), false)
        : request.onConnection() == 1 && posts().size() == 1
            ? WireAnswer.of(answer(401, request.requestId(), "{\"error\":\"invalid_api_key\"}"), false)
            : WireAnswer.of(answer(201, request.requestId(), BOOKED), false));

    client.lookup(ORDER, "attempt-1", Optional.empty(), deadline());
    client.book(REQUEST, "attempt-1", Optional.empty(), deadline());

    List<String> ids = wire.received().stream().map(Received::requestId).toList();
    assertThat(ids).extracting(id -> id.startsWith("attempt-1")).containsOnly(true);
    assertThat(ids).as("lookup, booking, booking with the key re-read").hasSize(3).doesNotHaveDuplicates();
  }

  /**
   * A booking request goes on a connection of its own, opened for it, and closed once answered: no earlier answer
   * can have left bytes on it, and none of its own stays for a later request.
   */
  @Test
  void aBookingRequestGoesOnAFreshConnectionThatEndsWithIt() throws InterruptedException {
    wire.answerWith(request -> WireAnswer.of(request.method().equals("GET") ? answer(200, request.requestId(), EMPTY)
        : answer(201, request.requestId(), BOOKED), false));

    client.lookup(ORDER, "a", Optional.empty(), deadline());
    client.book(REQUEST, "a", Optional.empty(), deadline());
    client.lookup(ORDER, "b", Optional.empty(), deadline());
    client.book(REQUEST, "b", Optional.empty(), deadline());

    List<Received> received = wire.received();
    List<Integer> lookups = received.stream().filter(r -> r.method().equals("GET")).map(Received::connection).toList();
    List<Integer> bookings = received.stream().filter(r -> r.method().equals("POST")).map(Received::connection).toList();
    assertThat(lookups).as("lookups share a pooled connection").containsExactly(lookups.getFirst(), lookups.getFirst());
    assertThat(bookings).doesNotHaveDuplicates().doesNotContainAnyElementsOf(lookups);
    assertThat(received.stream().filter(r -> r.method().equals("POST"))).allSatisfy(r -> assertThat(r.onConnection()).isEqualTo(1));
    for (int connection : bookings) {
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!wire.ended(connection) && System.nanoTime() < until) {
        Thread.sleep(10);
      }
      assertThat(wire.ended(connection)).as("booking connection %d closed after its answer", connection).isTrue();
    }
  }

  @Test
  void aLookupAsksForAFreshAnswerAndOneFromACacheProvesNothing() {
    for (String cached : List.of("Age: 0", "Age: 12", "Cache-Status: edge; hit", "Cache-Status: edge; fwd=uri-miss, cdn; hit")) {
      wire.answerWith(request -> WireAnswer.of(answer(200, request.requestId(), EMPTY, cached), false));
      assertThat(catchThrowable(() -> client.lookup(ORDER, "a", Optional.empty(), deadline())))
          .as("a lookup answered with %s", cached).isExactlyInstanceOf(PartnerUnavailableException.class);
      wire.answerWith(request -> WireAnswer.of(answer(429, request.requestId(), "{\"error\":\"rate_limited\"}", cached), false));
      assertThat(catchThrowable(() -> client.book(REQUEST, "a", Optional.empty(), deadline())))
          .as("a booking answered with %s", cached).isExactlyInstanceOf(PartnerOutcomeUnknownException.class);
    }
    wire.answerWith(request -> WireAnswer.of(answer(200, request.requestId(), EMPTY, "Cache-Status: edge; fwd=uri-miss"), false));
    assertThat(client.lookup(ORDER, "a", Optional.empty(), deadline())).isEmpty();
    assertThat(wire.received()).extracting(r -> r.headers().get("cache-control")).containsOnly("no-cache");
  }

  /**
   * A pooled connection the partner (or a gateway) closed as the lookup went out: the lookup, which books nothing,
   * goes again once on a fresh connection, instead of failing the try.
   */
  @Test
  void aLookupOnAPooledConnectionThePartnerClosedIsSentAgainOnAFreshOne() {
    wire.answerWith(request -> request.onConnection() == 1 ? WireAnswer.of(answer(200, request.requestId(), EMPTY), false)
        : new WireAnswer(new byte[0], true));

    client.lookup(ORDER, "a", Optional.empty(), deadline());
    assertThat(client.lookup(ORDER, "b", Optional.empty(), deadline())).isEmpty();

    assertThat(wire.received()).extracting(Received::connection, Received::onConnection)
        .containsExactly(Tuple.tuple(1, 1), Tuple.tuple(1, 2),
            Tuple.tuple(2, 1));
  }

  /** A lookup goes again once, never more: a partner that keeps failing fails the try. */
  @Test
  void aLookupIsSentAgainAtMostOnce() {
    wire.answerWith(request -> new WireAnswer(new byte[0], true));
    assertThat(catchThrowable(() -> client.lookup(ORDER, "a", Optional.empty(), deadline())))
        .isExactlyInstanceOf(PartnerUnavailableException.class);
    assertThat(wire.received()).hasSize(2);
  }

  /** The partner's own 401 proves nothing was booked, whether or not the secret can then be read again. */
  @Test
  void aBookingRefusedWithTheKeyIsNotBookedEvenWhenTheSecretCannotBeReadAgain() throws IOException {
    try (WiredPartnerClient own = WiredPartnerClient.start()) {
      own.wire().answerWith(request -> WireAnswer.of(request.method().equals("GET") ? answer(200, request.requestId(), EMPTY)
          : answer(401, request.requestId(), "{\"error\":\"invalid_api_key\"}"), false));
      own.client().lookup(ORDER, "a", Optional.empty(), deadline());
      own.secrets().close();

      Throwable failure = catchThrowable(() -> own.client().book(REQUEST, "a", Optional.empty(), deadline()));

      assertThat(failure).isExactlyInstanceOf(PartnerUnavailableException.class);
      assertThat(((PartnerException) failure).notBooked()).as("the 401 is the proof").isPresent();
      assertThat(own.wire().received().stream().filter(r -> r.method().equals("POST"))).hasSize(1);
    }
  }

  /**
   * A proxy would buffer the request beyond the abortive close the late-booking hold relies on: the client goes
   * straight to the partner, whatever proxy the JVM or the HTTP client it was given would use (an HTTP proxy, or a
   * SOCKS proxy the JVM's own sockets would take for a plain connection).
   */
  @Test
  void noProxyOfTheJvmsOrTheHttpClientsStandsBetweenTheClientAndThePartner() {
    ProxySelector nowhere = new ProxySelector() {
      @Override
      public List<Proxy> select(URI uri) {
        Proxy.Type type = uri.getScheme().startsWith("socket") ? Proxy.Type.SOCKS : Proxy.Type.HTTP;
        return List.of(new Proxy(type, new InetSocketAddress("127.0.0.1", 1)));
      }

      @Override
      public void connectFailed(URI uri, SocketAddress address, IOException failure) {}
    };
    // The key is read before the JVM's proxy changes: the AWS SDK's own HTTP client would take that proxy too.
    ApiKeySource keys = new ApiKeySource(partner.secretsClient(), "key");
    keys.current();
    ProxySelector before = ProxySelector.getDefault();
    ProxySelector.setDefault(nowhere);
    try {
      PartnerClient proxied = new PartnerClient(PartnerClient.httpClient().newBuilder().proxySelector(nowhere).build(),
          wire.baseUrl(), keys, new ObjectMapper());
      wire.answerWith(request -> WireAnswer.of(answer(200, request.requestId(), EMPTY), false));
      assertThat(proxied.lookup(ORDER, "a", Optional.empty(), deadline())).isEmpty();
      wire.answerWith(request -> WireAnswer.of(answer(201, request.requestId(), BOOKED), false));
      assertThat(proxied.book(REQUEST, "a", Optional.empty(), deadline()).shipmentId()).isEqualTo("SHP-1");
    } finally {
      ProxySelector.setDefault(before);
    }
  }
}
