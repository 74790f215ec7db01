package com.acme.fulfil.sim;

import com.acme.fulfil.contract.records.TraceHeaders;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * Partner API v1 over HTTP: the order in which the partner decides, and the wire format of each
 * answer. State lives in the collaborators; this class only reads the request and writes the reply.
 *
 * <p>A POST goes: outage (503) → key (401) → body (400) → scripted reaction → degraded coin (503)
 * → booking latency → content triggers (422) → booking (201). A GET goes: outage → key → scripted
 * fault → {@code order_id} (400) → lookup latency → 200.
 */
final class PartnerHandler implements HttpHandler {

  static final String SHIPMENTS = "/v1/shipments";
  /**
   * What a person rehearsing a page asks of the simulated partner (docs/runbook.md's rehearsals), by a
   * POST to this path plus {@code outage}, {@code healthy} or {@code rotate-key}: no part of the
   * partner's API, and answered before any request is recorded.
   */
  static final String REHEARSAL = "/simulator/";

  private final PartnerLedger ledger;
  private final PartnerScript script;
  private final PartnerConditions conditions;
  private final PartnerPace pace;
  private final ObjectMapper json;
  private final JsonReply reply;

  PartnerHandler(
      PartnerLedger ledger, PartnerScript script, PartnerConditions conditions, PartnerPace pace, ObjectMapper json) {
    this.ledger = ledger;
    this.script = script;
    this.conditions = conditions;
    this.pace = pace;
    this.json = json;
    this.reply = new JsonReply(json, "application/json");
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      CountDownLatch release = conditions.releaseGate();
      Optional<String> requestId = header(exchange, "X-Request-Id");
      requestId.ifPresent(id -> exchange.getResponseHeaders().set("X-Request-Id", id));
      if (exchange.getRequestURI().getPath().startsWith(REHEARSAL) && "POST".equals(exchange.getRequestMethod())) {
        rehearse(exchange, exchange.getRequestURI().getPath().substring(REHEARSAL.length()));
        return;
      }
      if (!SHIPMENTS.equals(exchange.getRequestURI().getPath())) {
        reply.send(exchange, 404, error("not_found", "no such resource"));
        return;
      }
      switch (exchange.getRequestMethod()) {
        case "POST" -> book(exchange, requestId, release);
        case "GET" -> lookup(exchange, requestId, release);
        default -> {
          exchange.getResponseHeaders().set("Allow", "GET, POST");
          reply.send(exchange, 405, error("method_not_allowed", "use POST to book or GET to look up"));
        }
      }
    } catch (InterruptedException e) {
      // The partner is closing: the exchange ends without an answer, as when a real partner goes away.
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The partner's bad day, on demand: an outage until {@code healthy}, or a cut-over to a new key,
   * which the answer holds (a simulated key, for the secret the rehearsal writes).
   */
  private void rehearse(HttpExchange exchange, String what) throws IOException {
    switch (what) {
      case "outage" -> {
        conditions.set(PartnerMode.OUTAGE, 0, Optional.empty());
        reply.sendAsIs(exchange, 200, "outage: every request answers 503 until POST " + REHEARSAL + "healthy\n");
      }
      case "healthy" -> {
        conditions.set(PartnerMode.HEALTHY, 0, Optional.empty());
        reply.sendAsIs(exchange, 200, "healthy\n");
      }
      case "rotate-key" -> {
        String newKey = "partner-key-rotated-" + Long.toHexString(conditions.now().toEpochMilli());
        conditions.rotateKey(newKey);
        reply.sendAsIs(exchange, 200, newKey + "\n");
      }
      default -> reply.send(exchange, 404, error("not_found", "the simulator rehearses outage, healthy and rotate-key"));
    }
  }

  private void book(HttpExchange exchange, Optional<String> requestId, CountDownLatch release)
      throws IOException, InterruptedException {
    JsonNode body = readJson(exchange);
    Optional<String> orderId = Optional.of(body.path("order_id")).filter(JsonNode::isTextual).map(JsonNode::asText);
    ledger.received(new PartnerRequest("POST", orderId, requestId, header(exchange, TraceHeaders.TRACEPARENT), conditions.now()));
    ledger.postStarted();
    try {
      PartnerConditions.Condition condition = conditions.current();
      if (refusedAtTheDoor(exchange, condition)) {
        return;
      }
      ShipmentRequest shipment;
      try {
        shipment = ShipmentRequest.from(header(exchange, "Content-Type"), body);
      } catch (ShipmentRequest.Invalid e) {
        reply.send(exchange, 400, error("invalid_request", e.getMessage()));
        return;
      }
      Optional<Reaction> scripted = script.takeForPost(shipment.orderId());
      if (scripted.isPresent()) {
        perform(exchange, scripted.get(), shipment, release);
        return;
      }
      if (condition.mode() == PartnerMode.DEGRADED && pace.chance(condition.unavailableShare())) {
        waitOut("POST", shipment.orderId(), pace.lookup());
        serverError(exchange, 503);
        return;
      }
      // The partner learns an address is bad while booking, so a rejection costs a booking's time.
      waitOut("POST", shipment.orderId(), pace.booking(condition.mode()));
      Optional<Reaction.Fault> rejection = shipment.rejection();
      if (rejection.isPresent()) {
        answer(exchange, rejection.get(), release);
        return;
      }
      created(exchange, ledger.book(shipment, conditions.now()));
    } finally {
      ledger.postFinished();
    }
  }

  private void lookup(HttpExchange exchange, Optional<String> requestId, CountDownLatch release)
      throws IOException, InterruptedException {
    Optional<String> orderId = queryParameter(exchange.getRequestURI().getRawQuery(), "order_id");
    ledger.received(new PartnerRequest("GET", orderId, requestId, header(exchange, TraceHeaders.TRACEPARENT), conditions.now()));
    if (refusedAtTheDoor(exchange, conditions.current())) {
      return;
    }
    Optional<Reaction.Fault> scripted = script.takeForLookup(orderId);
    if (scripted.isPresent() && scripted.get() instanceof Reaction.Listing listing && orderId.isPresent()) {
      reply.sendAsIs(exchange, 200, listed(orderId.get(), listing));
      return;
    }
    if (scripted.isPresent()) {
      answer(exchange, scripted.get(), release);
      return;
    }
    if (orderId.filter(id -> !id.isBlank()).isEmpty()) {
      reply.send(exchange, 400, error("invalid_request", "the order_id query parameter is required"));
      return;
    }
    waitOut("GET", orderId.get(), pace.lookup());
    reply.send(exchange, 200, Map.of("shipments",
        ledger.bookingsFor(orderId.get()).stream().map(Booking::contractBody).toList()));
  }

  /** Waits out a latency drawn from the model, and notes it: the partner's share of its caller's wait. */
  private void waitOut(String method, String orderId, Duration latency) throws InterruptedException {
    ledger.waited(new PartnerLatency(method, orderId, conditions.now(), latency));
    Thread.sleep(latency);
  }

  private boolean refusedAtTheDoor(HttpExchange exchange, PartnerConditions.Condition condition) throws IOException {
    if (condition.mode() == PartnerMode.OUTAGE) {
      serverError(exchange, 503);
      return true;
    }
    if (!conditions.accepts(header(exchange, "X-Api-Key"))) {
      ledger.unauthorized();
      reply.send(exchange, 401, Map.of("error", "invalid_api_key"));
      return true;
    }
    return false;
  }

  private void perform(HttpExchange exchange, Reaction reaction, ShipmentRequest shipment, CountDownLatch release)
      throws IOException, InterruptedException {
    switch (reaction) {
      case Reaction.BookAfter(var delay) -> {
        Thread.sleep(delay);
        created(exchange, ledger.book(shipment, conditions.now()));
      }
      case Reaction.BookWhen(var ready, var atMost) -> {
        long end = System.nanoTime() + atMost.toNanos();
        while (!ready.getAsBoolean() && System.nanoTime() < end) {
          Thread.sleep(5);
        }
        created(exchange, ledger.book(shipment, conditions.now()));
      }
      case Reaction.BookThenHang() -> {
        ledger.book(shipment, conditions.now());
        release.await();
        drop(exchange);
      }
      case Reaction.BookThenDrop() -> {
        ledger.book(shipment, conditions.now());
        drop(exchange);
      }
      case Reaction.LateBooking(var fault, var bookAfter) -> {
        Thread.ofVirtual().start(() -> {
          try {
            Thread.sleep(bookAfter);
            ledger.book(shipment, conditions.now());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
        answer(exchange, fault, release);
      }
      case Reaction.Fault fault -> answer(exchange, fault, release);
    }
  }

  private void answer(HttpExchange exchange, Reaction.Fault fault, CountDownLatch release)
      throws IOException, InterruptedException {
    switch (fault) {
      case Reaction.Hang() -> {
        release.await();
        drop(exchange);
      }
      case Reaction.Drop() -> drop(exchange);
      case Reaction.ServerError(var status) -> serverError(exchange, status);
      case Reaction.RateLimited(var retryAfterSeconds) -> {
        exchange.getResponseHeaders().set("Retry-After", Integer.toString(retryAfterSeconds));
        reply.send(exchange, 429, Map.of("error", "rate_limited"));
      }
      case Reaction.Rejected(var status, var error, var message) -> reply.send(exchange, status, error(error, message));
      case Reaction.Answer(var status, var body) -> reply.sendAsIs(exchange, status, body);
      case Reaction.Garbled(var status) -> {
        // The JDK server writes the code as given: "HTTP/1.1 -77".
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
      }
      case Reaction.Listing listing -> reply.send(exchange, 400, error("invalid_request", "a listing answers only a lookup of an order"));
      case Reaction.AnotherOrdersShipment() -> reply.send(exchange, 200, Map.of("shipments", List.of(Map.of(
          "shipment_id", "SHP-OF-ANOTHER-ORDER", "order_id", "ORD-ANOTHER-ORDER", "courier", "DPD",
          "tracking_number", "TRK-ANOTHER", "label_url", "https://partner.example/labels/SHP-OF-ANOTHER-ORDER.pdf"))));
    }
  }

  private String listed(String orderId, Reaction.Listing listing) throws JsonProcessingException {
    StringBuilder entries = new StringBuilder();
    for (String extra : listing.extras()) {
      entries.append(entries.isEmpty() ? "" : ",").append(extra.replace(Reaction.Listing.ORDER_ID, orderId));
    }
    for (Booking booking : ledger.bookingsFor(orderId)) {
      String entry = json.writeValueAsString(booking.contractBody());
      for (int copy = listing.duplicates() ? 2 : 1; copy > 0; copy--) {
        entries.append(entries.isEmpty() ? "" : ",").append(entry);
      }
    }
    return "{\"shipments\":[" + entries + "]}";
  }

  private void created(HttpExchange exchange, Booking booking) throws IOException {
    reply.send(exchange, 201, booking.contractBody());
  }

  private void serverError(HttpExchange exchange, int status) throws IOException {
    reply.send(exchange, status, Map.of("error", serverErrorName(status)));
  }

  /** Closing before any status line makes the JDK server close the socket: the client reads EOF. */
  private static void drop(HttpExchange exchange) {
    exchange.close();
  }

  private JsonNode readJson(HttpExchange exchange) throws IOException {
    byte[] body = exchange.getRequestBody().readAllBytes();
    try {
      JsonNode tree = json.readTree(body);
      return tree == null ? MissingNode.getInstance() : tree;
    } catch (JsonProcessingException e) {
      return MissingNode.getInstance();
    }
  }

  private static Optional<String> header(HttpExchange exchange, String name) {
    return Optional.ofNullable(exchange.getRequestHeaders().getFirst(name));
  }

  private static Optional<String> queryParameter(String rawQuery, String name) {
    if (rawQuery == null) {
      return Optional.empty();
    }
    return Arrays.stream(rawQuery.split("&"))
        .map(pair -> pair.split("=", 2))
        .filter(pair -> URLDecoder.decode(pair[0], StandardCharsets.UTF_8).equals(name))
        .map(pair -> pair.length == 2 ? URLDecoder.decode(pair[1], StandardCharsets.UTF_8) : "")
        .findFirst();
  }

  private static Map<String, String> error(String error, String message) {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("error", error);
    body.put("message", message);
    return body;
  }

  private static String serverErrorName(int status) {
    return switch (status) {
      case 500 -> "internal_error";
      case 502 -> "bad_gateway";
      case 503 -> "service_unavailable";
      case 504 -> "gateway_timeout";
      default -> "server_error";
    };
  }
}
