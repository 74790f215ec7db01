package com.acme.fulfil.sim;

import static com.acme.fulfil.sim.PartnerHttp.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SimulatedPartnerTest {

  private static final String KEY = "key-one";
  private static final Duration WAIT = Duration.ofSeconds(10);

  private static final ObjectMapper JSON = new ObjectMapper();

  private SimulatedPartner partner;
  private PartnerHttp http;

  @BeforeEach
  void startPartner() {
    partner = SimulatedPartner.start(KEY);
    http = new PartnerHttp(partner.baseUrl());
  }

  @AfterEach
  void stopPartner() {
    partner.close();
  }

  @Test
  void twoPostsForOneOrderBookTwiceAndLookupListsBothOldestFirst() throws Exception {
    HttpResponse<String> first = http.book(KEY, order("ORD-1"));
    HttpResponse<String> second = http.book(KEY, order("ORD-1"));

    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(second.statusCode()).isEqualTo(201);
    JsonNode firstBooking = JSON.readTree(first.body());
    assertThat(firstBooking.path("shipment_id").asText()).startsWith("SHP-");
    assertThat(firstBooking.path("order_id").asText()).isEqualTo("ORD-1");
    assertThat(firstBooking.path("courier").asText()).isNotBlank();
    assertThat(firstBooking.path("tracking_number").asText()).isNotBlank();
    assertThat(firstBooking.path("label_url").asText()).startsWith("https://");
    assertThat(first.headers().firstValue("Content-Type")).hasValue("application/json");

    HttpResponse<String> lookup = http.lookup(KEY, "ORD-1");
    assertThat(lookup.statusCode()).isEqualTo(200);
    JsonNode shipments = JSON.readTree(lookup.body()).path("shipments");
    assertThat(shipments).hasSize(2);
    assertThat(shipments.get(0)).isEqualTo(firstBooking);
    assertThat(shipments.get(1)).isEqualTo(JSON.readTree(second.body()));
    assertThat(partner.bookingsFor("ORD-1")).extracting(Booking::shipmentId)
        .containsExactly(
            firstBooking.path("shipment_id").asText(), JSON.readTree(second.body()).path("shipment_id").asText());
  }

  @Test
  void lookupOfAnUnbookedOrderAnswersAnEmptyList() throws Exception {
    http.book(KEY, order("ORD-OTHER"));

    HttpResponse<String> lookup = http.lookup(KEY, "ORD-NONE");

    assertThat(lookup.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(lookup.body())).isEqualTo(JSON.readTree("{\"shipments\":[]}"));
  }

  @Test
  void rotatedKeyRefusesTheOldKeyAndBooksWithTheNewOne() throws Exception {
    partner.rotateKey("key-two");

    HttpResponse<String> old = http.book(KEY, order("ORD-ROT"));
    HttpResponse<String> oldLookup = http.lookup(KEY, "ORD-ROT");
    HttpResponse<String> fresh = http.book("key-two", order("ORD-ROT"));

    assertThat(old.statusCode()).isEqualTo(401);
    assertThat(JSON.readTree(old.body())).isEqualTo(JSON.readTree("{\"error\":\"invalid_api_key\"}"));
    assertThat(oldLookup.statusCode()).isEqualTo(401);
    assertThat(fresh.statusCode()).isEqualTo(201);
    assertThat(partner.bookingsFor("ORD-ROT")).hasSize(1);
    assertThat(partner.unauthorizedCount()).isEqualTo(2);
    assertThat(partner.apiKey()).isEqualTo("key-two");
  }

  @Test
  void missingKeyIsUnauthorizedAndBooksNothing() throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(partner.baseUrl().resolve("/v1/shipments"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(order("ORD-NOKEY"))));

    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(partner.bookings()).isEmpty();
  }

  @Test
  void requestIdIsEchoedOnBookingsErrorsAndLookups() throws Exception {
    HttpResponse<String> booked = http.send(http.bookingRequest(KEY, order("ORD-RID")).header("X-Request-Id", "req-1"));
    HttpResponse<String> refused =
        http.send(http.bookingRequest("wrong", order("ORD-RID")).header("X-Request-Id", "req-2"));
    HttpResponse<String> looked = http.send(http.lookupRequest(KEY, "ORD-RID").header("X-Request-Id", "req-3"));

    assertThat(booked.headers().firstValue("X-Request-Id")).hasValue("req-1");
    assertThat(refused.headers().firstValue("X-Request-Id")).hasValue("req-2");
    assertThat(looked.headers().firstValue("X-Request-Id")).hasValue("req-3");
    assertThat(partner.requests()).extracting(request -> request.requestId().orElseThrow())
        .containsExactly("req-1", "req-2", "req-3");
    assertThat(partner.requests()).extracting(PartnerRequest::method).containsExactly("POST", "POST", "GET");
    assertThat(partner.requests()).allSatisfy(request -> assertThat(request.orderId()).hasValue("ORD-RID"));
  }

  @Test
  void scriptedRateLimitAnswers429WithRetryAfter() throws Exception {
    partner.script().nextPosts(1, Reaction.rateLimited(7));

    HttpResponse<String> limited = http.book(KEY, order("ORD-429"));
    HttpResponse<String> then = http.book(KEY, order("ORD-429"));

    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(limited.headers().firstValue("Retry-After")).hasValue("7");
    assertThat(JSON.readTree(limited.body()).path("error").asText()).isEqualTo("rate_limited");
    assertThat(then.statusCode()).isEqualTo(201);
    assertThat(partner.bookingsFor("ORD-429")).hasSize(1);
  }

  @Test
  void scriptedPostsAnswerInTheOrderTheyWereQueuedThenServiceResumes() throws Exception {
    partner.script().nextPosts(2, Reaction.unavailable()).nextPosts(1, Reaction.serverError(504));

    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      statuses.add(http.book(KEY, order("ORD-SEQ")).statusCode());
    }

    assertThat(statuses).containsExactly(503, 503, 504, 201);
    assertThat(partner.bookingsFor("ORD-SEQ")).hasSize(1);
  }

  @Test
  void scriptedLookupFaultsAnswerLookupsOnly() throws Exception {
    partner.script().nextLookups(1, Reaction.unavailable());

    assertThat(http.book(KEY, order("ORD-LF")).statusCode()).isEqualTo(201);
    assertThat(http.lookup(KEY, "ORD-LF").statusCode()).isEqualTo(503);
    assertThat(http.lookup(KEY, "ORD-LF").statusCode()).isEqualTo(200);
  }

  @Test
  void scriptedLookupFaultsForAnOrderAnswerThatOrdersLookupsOnlyBeforeTheGeneralOnes() throws Exception {
    partner.script().nextLookups(1, Reaction.serverError(504)).nextLookupsFor("ORD-LF1", 1, Reaction.unavailable());

    assertThat(http.lookup(KEY, "ORD-LF1").statusCode()).isEqualTo(503);
    assertThat(http.lookup(KEY, "ORD-LF2").statusCode()).isEqualTo(504);
    assertThat(http.lookup(KEY, "ORD-LF2").statusCode()).isEqualTo(200);
    assertThat(http.lookup(KEY, "ORD-LF1").statusCode()).isEqualTo(200);
  }

  @Test
  void outageAnswers503ToEveryRequestUntilHealthyAgain() throws Exception {
    partner.outage();

    HttpResponse<String> booking = http.book(KEY, order("ORD-OUT"));
    HttpResponse<String> lookup = http.lookup(KEY, "ORD-OUT");
    HttpResponse<String> wrongKey = http.book("wrong", order("ORD-OUT"));

    assertThat(List.of(booking.statusCode(), lookup.statusCode(), wrongKey.statusCode())).containsOnly(503);
    assertThat(partner.bookings()).isEmpty();
    assertThat(partner.mode()).isEqualTo(PartnerMode.OUTAGE);

    partner.healthy();
    assertThat(http.book(KEY, order("ORD-OUT")).statusCode()).isEqualTo(201);
  }

  @Test
  void outageWindowEndsByItself() throws Exception {
    MovableClock clock = new MovableClock();
    try (SimulatedPartner windowed = SimulatedPartner.builder().apiKey(KEY).clock(clock).start()) {
      PartnerHttp caller = new PartnerHttp(windowed.baseUrl());
      windowed.outage(Duration.ofMinutes(2));

      assertThat(caller.book(KEY, order("ORD-WIN")).statusCode()).isEqualTo(503);
      clock.advance(Duration.ofMinutes(2));
      assertThat(windowed.mode()).isEqualTo(PartnerMode.HEALTHY);
      assertThat(caller.book(KEY, order("ORD-WIN")).statusCode()).isEqualTo(201);
    }
  }

  @Test
  void degradedPartnerFailsItsShareAndSendsTheRestToTheTail() throws Exception {
    CountingLatency latency = new CountingLatency();
    try (SimulatedPartner degraded = SimulatedPartner.builder().apiKey(KEY).latency(latency).start()) {
      PartnerHttp caller = new PartnerHttp(degraded.baseUrl());

      degraded.degraded(1.0);
      assertThat(caller.book(KEY, order("ORD-DEG")).statusCode()).isEqualTo(503);
      degraded.degraded(0.0);
      assertThat(caller.book(KEY, order("ORD-DEG")).statusCode()).isEqualTo(201);
      degraded.healthy();
      assertThat(caller.book(KEY, order("ORD-DEG")).statusCode()).isEqualTo(201);

      assertThat(degraded.bookingsFor("ORD-DEG")).hasSize(2);
      assertThat(latency.degradedBookings).hasValue(1);
      assertThat(latency.healthyBookings).hasValue(1);
    }
  }

  @Test
  void theLatenciesItDrewAreNotedScaledWithTheirOrderAndNoneForARequestItRefused() throws Exception {
    LatencyModel fixed = new LatencyModel() {
      @Override
      public Duration booking(RandomGenerator random) {
        return Duration.ofSeconds(3);
      }

      @Override
      public Duration degradedBooking(RandomGenerator random) {
        return Duration.ofSeconds(6);
      }

      @Override
      public Duration lookup(RandomGenerator random) {
        return Duration.ofMillis(1500);
      }
    };
    try (SimulatedPartner scaled = SimulatedPartner.builder().apiKey(KEY).latency(fixed).timeScaleDivisor(30).start()) {
      PartnerHttp caller = new PartnerHttp(scaled.baseUrl());

      assertThat(caller.lookup(KEY, "ORD-LAT").statusCode()).isEqualTo(200);
      assertThat(caller.book(KEY, order("ORD-LAT")).statusCode()).isEqualTo(201);
      assertThat(caller.book("not-the-key", order("ORD-LAT")).statusCode()).isEqualTo(401);

      assertThat(scaled.latencies()).extracting(PartnerLatency::method, PartnerLatency::orderId, PartnerLatency::took)
          .containsExactly(tuple("GET", "ORD-LAT", Duration.ofMillis(50)), tuple("POST", "ORD-LAT", Duration.ofMillis(100)));
      assertThat(scaled.latencies().get(1).ended()).as("booked once the drawn latency had passed")
          .isBeforeOrEqualTo(scaled.bookings().getFirst().bookedAt());
    }
  }

  @Test
  void bookThenHangKeepsTheBookingThoughTheClientGaveUp() throws Exception {
    partner.script().forOrder("ORD-HANG", 1, Reaction.bookThenHang());
    CompletableFuture<HttpResponse<String>> call = http.bookAsync(KEY, order("ORD-HANG"));

    // Gives up only once the partner has booked, however slowly a loaded machine gets the request there.
    assertThat(partner.awaitBookings("ORD-HANG", 1, WAIT)).hasSize(1);
    assertThat(call).as("booked, and no answer").isNotDone();
    call.cancel(true);

    assertThat(call).as("the client gave up").isCompletedExceptionally();
    assertThat(partner.bookingsFor("ORD-HANG")).hasSize(1);
    JsonNode shipments = JSON.readTree(http.lookup(KEY, "ORD-HANG").body()).path("shipments");
    assertThat(shipments).hasSize(1);
    assertThat(shipments.get(0).path("shipment_id").asText())
        .isEqualTo(partner.bookingsFor("ORD-HANG").get(0).shipmentId());
  }

  @Test
  void bookThenDropClosesTheConnectionWithoutAnAnswerButBooks() {
    partner.script().nextPosts(1, Reaction.bookThenDrop());

    assertThatThrownBy(() -> http.book(KEY, order("ORD-DROP"))).isInstanceOf(IOException.class);

    assertThat(partner.bookingsFor("ORD-DROP")).hasSize(1);
  }

  @Test
  void dropWithoutBookingLeavesTheLedgerEmpty() {
    partner.script().nextPosts(1, Reaction.drop());

    assertThatThrownBy(() -> http.book(KEY, order("ORD-LOST"))).isInstanceOf(IOException.class);

    assertThat(partner.bookings()).isEmpty();
    assertThat(partner.postCount()).isEqualTo(1);
  }

  @Test
  void lateAnswerBooksWhenItsDelayHasPassed() throws Exception {
    partner.script().forOrder("ORD-LATE", 1, Reaction.bookAfter(Duration.ofMillis(200)));

    HttpResponse<String> response = http.book(KEY, order("ORD-LATE"));

    assertThat(response.statusCode()).isEqualTo(201);
    assertThat(partner.bookingsFor("ORD-LATE")).hasSize(1);
  }

  @Test
  void manySlowCallsAreHeldOpenAtOnce() throws Exception {
    int calls = 50;
    partner.script().nextPosts(calls, Reaction.bookThenHang());

    List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      pending.add(http.bookAsync(KEY, order("ORD-C" + i)));
    }
    assertThat(partner.awaitBookings(calls, WAIT)).hasSize(calls);

    assertThat(partner.postsInFlight()).isEqualTo(calls);
    assertThat(partner.peakConcurrentPosts()).isEqualTo(calls);

    partner.reset();
    assertThat(pending).allSatisfy(call -> assertThat(call).failsWithin(WAIT)
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(IOException.class));
    assertThat(partner.bookings()).isEmpty();
  }

  @Test
  void scriptedRejectionForOneOrderLeavesOtherOrdersBooking() throws Exception {
    partner.script().forOrder("ORD-BAD", Reaction.addressRejected());

    HttpResponse<String> first = http.book(KEY, order("ORD-BAD"));
    HttpResponse<String> again = http.book(KEY, order("ORD-BAD"));
    HttpResponse<String> other = http.book(KEY, order("ORD-GOOD"));

    assertThat(first.statusCode()).isEqualTo(422);
    assertThat(again.statusCode()).isEqualTo(422);
    assertThat(JSON.readTree(first.body()).path("error").asText()).isEqualTo("address_rejected");
    assertThat(other.statusCode()).isEqualTo(201);
    assertThat(partner.bookings()).extracting(Booking::orderId).containsExactly("ORD-GOOD");
  }

  @Test
  void unsupportedCountryIsRejectedPermanently() throws Exception {
    HttpResponse<String> response = http.book(KEY, order("ORD-ZZ", SimulatedPartner.UNSUPPORTED_COUNTRY, "1000"));

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(JSON.readTree(response.body()).path("error").asText()).isEqualTo("unsupported_destination");
    assertThat(JSON.readTree(response.body()).path("message").asText()).isNotBlank();
    assertThat(partner.bookings()).isEmpty();
  }

  @Test
  void rejectedPostcodeIsRejectedPermanently() throws Exception {
    HttpResponse<String> response = http.book(KEY, order("ORD-PC", "GB", SimulatedPartner.REJECTED_POSTCODE));

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(JSON.readTree(response.body()).path("error").asText()).isEqualTo("address_rejected");
    assertThat(partner.bookings()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedBodies")
  void malformedBodyIsAnInvalidRequestAndBooksNothing(String problem, String body) throws Exception {
    HttpResponse<String> response = http.book(KEY, body);

    assertThat(response.statusCode()).isEqualTo(400);
    JsonNode error = JSON.readTree(response.body());
    assertThat(error.path("error").asText()).isEqualTo("invalid_request");
    assertThat(error.path("message").asText()).isNotBlank();
    assertThat(partner.bookings()).isEmpty();
  }

  static Stream<Arguments> malformedBodies() {
    return Stream.of(
        arguments("not JSON", "not json"),
        arguments("empty", ""),
        arguments("an array", "[]"),
        arguments("trailing text", order("ORD-1") + " trailing"),
        arguments("no order_id", changed(o -> o.remove("order_id"))),
        arguments("order_id with a space", changed(o -> o.put("order_id", "ORD 1"))),
        arguments("unknown service", changed(o -> o.put("service", "overnight"))),
        arguments("no ship_to", changed(o -> o.remove("ship_to"))),
        arguments("blank name", changed(o -> shipTo(o).put("name", " "))),
        arguments("postcode too long", changed(o -> shipTo(o).put("postcode", "X".repeat(201)))),
        arguments("lower-case country", changed(o -> shipTo(o).put("country", "gb"))),
        arguments("numeric line2", changed(o -> shipTo(o).put("line2", 7))),
        arguments("no parcels", changed(o -> o.putArray("parcels"))),
        arguments("51 parcels", changed(o -> {
          for (int i = 0; i < 50; i++) {
            ((ArrayNode) o.path("parcels")).addObject().put("weight_grams", 1);
          }
        })),
        arguments("zero weight", changed(o -> parcel(o).put("weight_grams", 0))),
        arguments("weight over 70 kg", changed(o -> parcel(o).put("weight_grams", 70_001))),
        arguments("fractional weight", changed(o -> parcel(o).put("weight_grams", 12.5))),
        arguments("weight as text", changed(o -> parcel(o).put("weight_grams", "1200"))));
  }

  @Test
  void bodyWithoutJsonContentTypeIsAnInvalidRequest() throws Exception {
    HttpResponse<String> response =
        http.send(http.bookingRequest(KEY, order("ORD-CT")).setHeader("Content-Type", "text/plain"));

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(partner.bookings()).isEmpty();
  }

  @Test
  void bodyWithUnknownFieldsAndCharsetIsAccepted() throws Exception {
    String body = order("ORD-FWD").replaceFirst("\\{", "{\"gift_wrap\":true,");

    HttpResponse<String> response =
        http.send(http.bookingRequest(KEY, body).setHeader("Content-Type", "application/json; charset=utf-8"));

    assertThat(response.statusCode()).isEqualTo(201);
  }

  @Test
  void lookupWithoutOrderIdIsAnInvalidRequest() throws Exception {
    HttpResponse<String> response =
        http.send(HttpRequest.newBuilder(partner.baseUrl().resolve("/v1/shipments")).header("X-Api-Key", KEY));

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(response.body()).path("error").asText()).isEqualTo("invalid_request");
  }

  @Test
  void aRehearsalTurnsAnOutageOnAndOffAndCutsOverToTheKeyItAnswers() throws Exception {
    assertThat(rehearse("outage").statusCode()).isEqualTo(200);
    assertThat(http.lookup(KEY, "ORD-REHEARSAL").statusCode()).isEqualTo(503);
    assertThat(rehearse("healthy").statusCode()).isEqualTo(200);
    assertThat(http.lookup(KEY, "ORD-REHEARSAL").statusCode()).isEqualTo(200);

    String newKey = rehearse("rotate-key").body().strip();
    assertThat(http.lookup(KEY, "ORD-REHEARSAL").statusCode()).isEqualTo(401);
    assertThat(http.lookup(newKey, "ORD-REHEARSAL").statusCode()).isEqualTo(200);
    assertThat(partner.requests()).as("the four lookups, and no rehearsal: it is no request to the partner's API").hasSize(4);
    assertThat(rehearse("flood").statusCode()).isEqualTo(404);
  }

  private HttpResponse<String> rehearse(String what) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(partner.baseUrl().resolve(PartnerHandler.REHEARSAL + what))
        .POST(HttpRequest.BodyPublishers.noBody()));
  }

  @Test
  void unknownPathIsNotFound() throws Exception {
    HttpResponse<String> response =
        http.send(HttpRequest.newBuilder(partner.baseUrl().resolve("/v2/shipments")).header("X-Api-Key", KEY));

    assertThat(response.statusCode()).isEqualTo(404);
  }

  @Test
  void resetForgetsBookingsScriptAndRotation() throws Exception {
    http.book(KEY, order("ORD-R"));
    partner.rotateKey("key-two");
    partner.script().nextPosts(5, Reaction.unavailable());
    partner.outage();

    partner.reset();

    assertThat(partner.bookings()).isEmpty();
    assertThat(partner.postCount()).isZero();
    assertThat(partner.unauthorizedCount()).isZero();
    assertThat(http.book(KEY, order("ORD-R")).statusCode()).isEqualTo(201);
  }

  @Test
  void lookupsAreCountedApartFromBookings() throws Exception {
    http.book(KEY, order("ORD-N"));
    http.lookup(KEY, "ORD-N");
    http.lookup(KEY, "ORD-N");

    assertThat(partner.postCount()).isEqualTo(1);
    assertThat(partner.lookupCount()).isEqualTo(2);
  }

  @Test
  void lookupsAreCountedForEachOrder() throws Exception {
    http.lookup(KEY, "ORD-N1");
    http.lookup(KEY, "ORD-N2");
    http.lookup(KEY, "ORD-N2");
    http.book(KEY, order("ORD-N2"));

    assertThat(partner.lookupCount("ORD-N1")).isEqualTo(1);
    assertThat(partner.lookupCount("ORD-N2")).isEqualTo(2);
    assertThat(partner.lookupCount("ORD-N3")).isZero();
  }


  /** A valid order with one change. */
  private static String changed(Consumer<ObjectNode> change) {
    try {
      ObjectNode body = (ObjectNode) JSON.readTree(order("ORD-1"));
      change.accept(body);
      return JSON.writeValueAsString(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ObjectNode shipTo(ObjectNode body) {
    return (ObjectNode) body.path("ship_to");
  }

  private static ObjectNode parcel(ObjectNode body) {
    return (ObjectNode) body.path("parcels").get(0);
  }
}
