package com.acme.fulfil.partner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.acme.fulfil.trace.TraceContext;
import com.acme.fulfil.order.OrderMessage;
import com.acme.fulfil.order.Parcel;
import com.acme.fulfil.order.Service;
import com.acme.fulfil.order.ShipTo;
import com.acme.fulfil.secrets.ApiKeySource;
import com.acme.fulfil.secrets.SecretUnavailableException;
import com.acme.fulfil.sim.PartnerRequest;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.sim.SecretsManagerEndpoint;
import com.acme.fulfil.sim.SimulatedPartner;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import okhttp3.OkHttpClient;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/** Error classification and key handling, over real HTTP to the simulated partner. */
class PartnerClientTest {
  private static final String SECRET = "partner-api-key";
  private static SimulatedPartner partner;
  private static SecretsManagerEndpoint secrets;
  private static SecretsManagerClient secretsClient;
  private static PartnerClient client;

  @BeforeAll
  static void start() {
    partner = SimulatedPartner.start("key-1");
    secrets = SecretsManagerEndpoint.start();
    secrets.putSecret(SECRET, "key-1");
    secretsClient = SecretsManagerClient.builder().endpointOverride(secrets.endpoint()).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
        .httpClient(UrlConnectionHttpClient.create()).build();
    client = new PartnerClient(PartnerClient.httpClient(), partner.baseUrl(), new ApiKeySource(secretsClient, SECRET),
        new ObjectMapper());
  }

  @AfterAll
  static void stop() {
    partner.close();
    secrets.close();
    secretsClient.close();
  }

  @AfterEach
  void healthy() {
    partner.script().clear();
    partner.healthy();
  }

  private static ShipmentRequest request(String orderId) {
    return ShipmentRequest.of(new OrderMessage(orderId, Instant.parse("2026-11-20T14:03:11Z"), Service.EXPRESS,
        new ShipTo("Ada Lovelace", "12 St James's Square", null, "London", "SW1Y 4JH", "GB"), List.of(new Parcel(1200))));
  }

  private static String orderId() {
    return "ORD-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** A deadline for a partner that answers at once: only a hang may reach it, so it leaves room for a loaded machine. */
  private static Deadline seconds(int s) {
    return Deadline.in(Duration.ofSeconds(s));
  }

  @Test
  void bookingReturnsTheShipmentAndSendsTheRequestId() {
    String orderId = orderId();
    Shipment shipment = client.book(request(orderId), "attempt-42", Optional.empty(), seconds(30));

    assertThat(shipment.orderId()).isEqualTo(orderId);
    assertThat(partner.bookingsFor(orderId)).extracting(b -> b.shipmentId()).containsExactly(shipment.shipmentId());
    assertThat(partner.requests()).map(PartnerRequest::requestId).anySatisfy(id -> assertThat(id).hasValueSatisfying(
        value -> assertThat(value).startsWith("attempt-42-")));
  }

  @Test
  void aTracedOrdersBookingAndLookupEachCarryAChildOfItsTraceNextToTheRequestId() {
    String orderId = orderId();
    TraceContext order = TraceContext.fromTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").orElseThrow();

    client.book(request(orderId), "attempt-7", Optional.of(order), seconds(30));
    client.lookup(orderId, "attempt-8", Optional.of(order), seconds(30));

    // A key rotated by another test adds a 401 and a second request: each is a request of its own.
    List<PartnerRequest> received = partner.requests().stream().filter(r -> r.orderId().equals(Optional.of(orderId))).toList();
    assertThat(received).extracting(PartnerRequest::method).contains("POST", "GET");
    assertThat(received).extracting(r -> r.requestId().orElseThrow().substring(0, "attempt-7".length()))
        .contains("attempt-7", "attempt-8");
    List<TraceContext> sent = received.stream()
        .map(r -> TraceContext.fromTraceparent(r.traceparent().orElseThrow()).orElseThrow()).toList();
    assertThat(sent).allSatisfy(child -> {
      assertThat(child.traceId()).isEqualTo(order.traceId());
      assertThat(child.flags()).isEqualTo(order.flags());
      assertThat(child.parentId()).isNotEqualTo(order.parentId());
    });
    assertThat(sent).extracting(TraceContext::parentId).as("a span per request").doesNotHaveDuplicates();
  }

  @Test
  void anUntracedOrdersRequestsCarryNoTraceparent() {
    String orderId = orderId();

    client.book(request(orderId), "a", Optional.empty(), seconds(30));
    client.lookup(orderId, "b", Optional.empty(), seconds(30));

    assertThat(partner.requests()).filteredOn(r -> r.orderId().equals(Optional.of(orderId)))
        .extracting(PartnerRequest::method).contains("POST", "GET");
    assertThat(partner.requests()).filteredOn(r -> r.orderId().equals(Optional.of(orderId)))
        .allSatisfy(r -> assertThat(r.traceparent()).isEmpty());
  }

  @Test
  void lookupListsEveryBookingOldestFirst() {
    String orderId = orderId();
    Shipment first = client.book(request(orderId), "a", Optional.empty(), seconds(30));
    Shipment second = client.book(request(orderId), "b", Optional.empty(), seconds(30));

    assertThat(client.lookup(orderId, "c", Optional.empty(), seconds(30))).containsExactly(first, second);
    assertThat(client.lookup(orderId(), "d", Optional.empty(), seconds(30))).isEmpty();
  }

  @Test
  void badRequestAndRejectedAddressArePermanent() {
    String orderId = orderId();
    partner.script().forOrder(orderId, Reaction.invalidRequest("no"));
    assertThatThrownBy(() -> client.book(request(orderId), "a", Optional.empty(), seconds(30)))
        .isInstanceOf(PartnerRejectedException.class).hasMessage("partner rejected the order: 400 invalid_request");
    String otherOrderId = orderId();
    partner.script().forOrder(otherOrderId, Reaction.addressRejected());
    assertThatThrownBy(() -> client.book(request(otherOrderId), "b", Optional.empty(), seconds(30)))
        .isInstanceOf(PartnerRejectedException.class).hasMessage("partner rejected the order: 422 address_rejected");
  }

  @Test
  void rateLimitIsTransientButAServerErrorOnABookingIsAnUnknownOutcome() {
    partner.script().nextPosts(1, Reaction.rateLimited(7)).nextPosts(1, Reaction.serverError(502));
    assertThatThrownBy(() -> client.book(request(orderId()), "a", Optional.empty(), seconds(30)))
        .isInstanceOfSatisfying(PartnerUnavailableException.class, e -> {
          assertThat(e).hasMessageContaining("429, Retry-After 7");
          assertThat(e.retryAfter()).contains(java.time.Duration.ofSeconds(7));
        });
    assertThatThrownBy(() -> client.book(request(orderId()), "b", Optional.empty(), seconds(30)))
        .isInstanceOf(PartnerOutcomeUnknownException.class).hasMessageContaining("502");
  }

  @Test
  void bookingThatOutlivesItsDeadlineHasAnUnknownOutcome() {
    String orderId = orderId();
    partner.script().forOrder(orderId, Reaction.bookThenHang());

    assertThatThrownBy(() -> client.book(request(orderId), "a", Optional.empty(), Deadline.in(Duration.ofMillis(500))))
        .isInstanceOf(PartnerOutcomeUnknownException.class).hasMessageContaining("deadline passed");
    assertThat(partner.bookingsFor(orderId)).hasSize(1);
  }

  /**
   * The late-booking hold counts from the moment the try stopped waiting, so from then on no byte of the
   * request may still reach the partner: the client resets the connection, which drops what the kernel
   * had not delivered, where a graceful close would keep sending it (through a healed partition, or
   * once a frozen execution environment thaws).
   */
  @Test
  void aBookingTheTryStoppedWaitingForIsResetNotClosedGracefully() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      PartnerClient toSilent = new PartnerClient(PartnerClient.httpClient(),
          URI.create("http://127.0.0.1:" + silent.getLocalPort()), new ApiKeySource(secretsClient, SECRET), new ObjectMapper());
      CompletableFuture<Throwable> ending = CompletableFuture.supplyAsync(() -> catchThrowable(
          () -> toSilent.book(request(orderId()), "a", Optional.empty(), Deadline.in(Duration.ofMillis(500)))));
      try (Socket connection = silent.accept()) {
        assertThat(ending.get(30, TimeUnit.SECONDS)).isInstanceOf(PartnerOutcomeUnknownException.class);
        assertEndsInAReset(connection);
      }
    }
  }

  /**
   * The same over TLS, against a partner that would speak HTTP/2: the request goes over HTTP/1.1 (over HTTP/2 a call
   * that ends resets only its stream, and the connection goes on delivering the request), and the TCP connection under
   * TLS ends in a reset.
   */
  @Test
  void aBookingOverTlsIsSentOverHttp11AndResetWhenTheTryStopsWaiting() throws Exception {
    HeldCertificate certificate = new HeldCertificate.Builder().addSubjectAlternativeName("127.0.0.1").build();
    HandshakeCertificates server = new HandshakeCertificates.Builder().heldCertificate(certificate).build();
    HandshakeCertificates trusting = new HandshakeCertificates.Builder().addTrustedCertificate(certificate.certificate()).build();
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      OkHttpClient http = PartnerClient.httpClient().newBuilder()
          .sslSocketFactory(trusting.sslSocketFactory(), trusting.trustManager()).build();
      PartnerClient toSilent = new PartnerClient(http, URI.create("https://127.0.0.1:" + silent.getLocalPort()),
          new ApiKeySource(secretsClient, SECRET), new ObjectMapper());
      CompletableFuture<Throwable> ending = CompletableFuture.supplyAsync(() -> catchThrowable(
          () -> toSilent.book(request(orderId()), "a", Optional.empty(), Deadline.in(Duration.ofSeconds(5)))));
      try (Socket connection = silent.accept()) {
        SSLSocket tls = (SSLSocket) server.sslSocketFactory().createSocket(connection, null, connection.getPort(), false);
        tls.setUseClientMode(false);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"h2", "http/1.1"});
        tls.setSSLParameters(parameters);
        tls.startHandshake();
        assertThat(tls.getApplicationProtocol()).as("ALPN's choice").isIn("http/1.1", "");
        assertThat(ending.get(30, TimeUnit.SECONDS)).isInstanceOf(PartnerOutcomeUnknownException.class);
        assertEndsInAReset(connection);
      }
    }
  }

  @Test
  void droppedConnectionAfterBookingHasAnUnknownOutcome() {
    String orderId = orderId();
    partner.script().forOrder(orderId, Reaction.bookThenDrop());

    assertThatThrownBy(() -> client.book(request(orderId), "a", Optional.empty(), seconds(30)))
        .isInstanceOf(PartnerOutcomeUnknownException.class);
    assertThat(partner.bookingsFor(orderId)).hasSize(1);
  }

  @Test
  void lookupThatHangsIsTransientNotUnknown() {
    partner.script().nextLookups(1, Reaction.hang());
    assertThatThrownBy(() -> client.lookup(orderId(), "a", Optional.empty(), Deadline.in(Duration.ofMillis(300))))
        .isInstanceOf(PartnerUnavailableException.class);
  }

  @Test
  void partnerThatCannotBeReachedIsTransientNotUnknown() {
    PartnerClient nowhere = new PartnerClient(PartnerClient.httpClient(), URI.create("http://127.0.0.1:1"),
        new ApiKeySource(secretsClient, SECRET), new ObjectMapper());
    assertThatThrownBy(() -> nowhere.book(request(orderId()), "a", Optional.empty(), seconds(2)))
        .isInstanceOf(PartnerUnavailableException.class);
  }

  @Test
  void rotatedKeyIsReReadOnceThenUsed() {
    rotateTo("key-" + UUID.randomUUID());
    int reads = secrets.requestCount("GetSecretValue");

    client.book(request(orderId()), "a", Optional.empty(), seconds(30));
    client.book(request(orderId()), "b", Optional.empty(), seconds(30));

    assertThat(secrets.requestCount("GetSecretValue") - reads).isEqualTo(1);
  }

  @Test
  void keyRefusedAfterARefreshIsTransient() {
    partner.rotateKey("key-nobody-has");
    try {
      assertThatThrownBy(() -> client.book(request(orderId()), "a", Optional.empty(), seconds(30)))
          .isInstanceOf(PartnerUnavailableException.class).hasMessageContaining("401");
    } finally {
      rotateTo("key-" + UUID.randomUUID());
    }
  }

  /**
   * A rotated key meets the lookup first, since every booking is preceded by one: the lookup re-reads the secret
   * once, as the booking does, and a second refusal says "rotate the secret", as the booking's does. It said
   * "partner answered 401 to a lookup", and the runbook's line for a rotated key never appeared.
   */
  @Test
  void aKeyRefusedOnTheLookupIsReReadOnceThenSaidAsOnTheBooking() {
    partner.rotateKey("key-nobody-has");
    int reads = secrets.requestCount("GetSecretValue");
    try {
      assertThatThrownBy(() -> client.lookup(orderId(), "a", Optional.empty(), seconds(30)))
          .isInstanceOf(PartnerUnavailableException.class).hasMessage(PartnerAnswers.KEY_REFUSED);
      assertThat(secrets.requestCount("GetSecretValue") - reads).as("the secret re-read once").isEqualTo(1);
      assertThatThrownBy(() -> client.book(request(orderId()), "b", Optional.empty(), seconds(30)))
          .isInstanceOf(PartnerUnavailableException.class).hasMessage(PartnerAnswers.KEY_REFUSED);
    } finally {
      rotateTo("key-" + UUID.randomUUID());
    }
  }

  private static void rotateTo(String key) {
    partner.rotateKey(key);
    secrets.putSecret(SECRET, key);
  }

  @Test
  void unreadableSecretIsTransient() {
    ApiKeySource missing = new ApiKeySource(secretsClient, "no-such-secret");
    assertThatThrownBy(missing::current).isInstanceOf(SecretUnavailableException.class)
        .hasMessageContaining("ResourceNotFoundException");
  }

  /** Reads what the client sent to the end: a reset, not an orderly close, once the client stopped waiting. */
  private static void assertEndsInAReset(Socket connection) throws IOException {
    InputStream in = connection.getInputStream();
    assertThatThrownBy(() -> {
      while (in.read() >= 0) {
        // the request's bytes (TLS records over TLS), then the end of the TCP connection
      }
    }).as("the client stopped waiting: the connection ends in a reset, not an orderly close")
        .isInstanceOf(SocketException.class).hasMessageContaining("reset");
  }
}
