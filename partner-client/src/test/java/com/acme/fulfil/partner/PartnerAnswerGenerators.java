package com.acme.fulfil.partner;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.partner.WirePartner.WireAnswer;
import com.acme.fulfil.sim.Reaction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Answers the partner could give to a lookup or a booking of {@link #ORDER}, each with what
 * docs/partner-api.md says it means, worked out from how it was generated. The entries and bodies are
 * shared with the system test that puts them through the packaged function (there {@link
 * Reaction.Listing#ORDER_ID} stands for the order looked up).
 */
public final class PartnerAnswerGenerators {
  public static final String ORDER = "ORD-FUZZ";
  private static final String OWN = Reaction.Listing.ORDER_ID;

  private PartnerAnswerGenerators() {}

  /** What a lookup's list entry is to the order looked up. */
  public enum Kind {
    /** One of the order's bookings, readable. */
    OWN,
    /** Names no other order and cannot be read: a booking of the order we cannot record. */
    OWN_UNREADABLE,
    /** Another order's, readable or not: no booking of this one. */
    FOREIGN
  }

  /** A list entry: its JSON, with {@link Reaction.Listing#ORDER_ID} for the order looked up ({@link #spellings} spell ORDER itself). */
  public record Entry(String json, Kind kind, Optional<String> shipmentId) {}

  /** Entries that claim no booking of the order that is not there: foreign ones, and the order's unreadable ones. */
  public static Arbitrary<Entry> extras() {
    Arbitrary<Entry> unreadable = Arbitraries.of(
        "{\"shipment_id\":42,\"order_id\":\"" + OWN + "\"}",
        "{\"shipment_id\":null,\"order_id\":\"" + OWN + "\"}",
        "{\"shipment_id\":\"\",\"order_id\":\"" + OWN + "\"}",
        "{\"shipment_id\":\"  \",\"order_id\":\"" + OWN + "\"}",
        "{\"order_id\":\"" + OWN + "\",\"courier\":\"DPD\"}",
        "{\"shipment_id\":{},\"order_id\":\"" + OWN + "\"}",
        "{\"shipment_id\":\"SHP-Q\",\"order_id\":\"" + OWN + "\",\"courier\":[\"DPD\"]}",
        "{\"shipment_id\":\"SHP-Q\"}",
        "{\"shipment_id\":\"SHP-Q\",\"order_id\":null}",
        "{\"shipment_id\":\"SHP-Q\",\"order_id\":7}",
        "{\"shipment_id\":\"SHP-Q\",\"order_id\":\"\"}",
        // The order's id with a space, a tab or a non-breaking space around it: a partner that pads may be echoing ours.
        "{\"shipment_id\":\"SHP-Q\",\"order_id\":\" " + OWN + "\",\"courier\":\"DPD\"}",
        "{\"shipment_id\":\"SHP-Q\",\"order_id\":\"" + OWN + " \",\"courier\":\"DPD\"}",
        "{\"shipment_id\":\"SHP-Q\",\"order_id\":\"\\t" + OWN + "\",\"courier\":\"DPD\"}",
        "{\"shipment_id\":\"SHP-Q\",\"order_id\":\"" + OWN + "\\u00a0\",\"courier\":\"DPD\"}",
        "{}", "7", "\"SHP-Q\"", "null", "[]", "true")
        .map(json -> new Entry(json, Kind.OWN_UNREADABLE, Optional.empty()));
    Arbitrary<Entry> foreign = Arbitraries.of(
        "{\"shipment_id\":\"SHP-OTHER\",\"order_id\":\"ORD-OTHER\",\"courier\":\"DPD\",\"tracking_number\":\"T\",\"label_url\":\"u\"}",
        "{\"shipment_id\":42,\"order_id\":\"ORD-OTHER\"}",
        "{\"order_id\":\"ORD-OTHER\"}",
        "{\"shipment_id\":\"SHP-OTHER\",\"order_id\":\"" + OWN + "-2\"}")
        .map(json -> new Entry(json, Kind.FOREIGN, Optional.empty()));
    return Arbitraries.oneOf(unreadable, foreign);
  }

  /** One of the order's readable bookings; a small id range, so the same booking is listed twice now and then. */
  public static Arbitrary<Entry> ownBookings() {
    return Arbitraries.integers().between(1, 3).flatMap(n -> Arbitraries.of(
        "{\"shipment_id\":\"SHP-" + n + "\",\"order_id\":\"" + OWN + "\",\"courier\":\"DPD\",\"tracking_number\":\"T" + n
            + "\",\"label_url\":\"https://l/" + n + ".pdf\"}",
        "{\"order_id\":\"" + OWN + "\",\"shipment_id\":\"SHP-" + n + "\",\"something_new\":{\"a\":[1]}}",
        "{\"shipment_id\":\"SHP-" + n + "\",\"order_id\":\"" + OWN + "\",\"courier\":null,\"tracking_number\":123}")
        .map(json -> new Entry(json, Kind.OWN, Optional.of("SHP-" + n))));
  }

  /**
   * {@link #ORDER}'s id as a partner might echo it, in a booking: written with a JSON escape it is the
   * order's own id (a booking of the order); in another case, with look-alike letters (Cyrillic О, Greek
   * Ο, full-width letters), a non-breaking hyphen or a zero-width space it names no other order, and may
   * be the order's id, folded or transliterated on the way. Made from ORDER, not from {@link
   * Reaction.Listing#ORDER_ID}: the system test's order ids are not known when its answers are generated.
   */
  static Arbitrary<Entry> spellings() {
    String escaped = String.format("\\u%04X", (int) ORDER.charAt(0)) + ORDER.substring(1);
    Arbitrary<Entry> ours = Arbitraries.just(new Entry(spelledBooking(escaped), Kind.OWN, Optional.of("SHP-1")));
    Arbitrary<Entry> mayBeOurs = Arbitraries.of(
            ORDER.toLowerCase(Locale.ROOT),
            ORDER.charAt(0) + ORDER.substring(1).toLowerCase(Locale.ROOT),
            ORDER.replace('O', '\u041E'),
            ORDER.replace('O', '\u039F'),
            ORDER.replace('-', '\u2011'),
            ORDER.chars().mapToObj(c -> String.valueOf((char) (c + 0xFEE0))).collect(Collectors.joining()),
            ORDER + "\u200B")
        .map(spelling -> new Entry(spelledBooking(spelling), Kind.OWN_UNREADABLE, Optional.empty()));
    return Arbitraries.oneOf(ours, mayBeOurs);
  }

  private static String spelledBooking(String orderId) {
    return "{\"shipment_id\":\"SHP-1\",\"order_id\":\"" + orderId + "\",\"courier\":\"DPD\",\"tracking_number\":\"T1\","
        + "\"label_url\":\"https://l/1.pdf\"}";
  }

  /**
   * A document with a key twice: a second {@code shipments} list after the first (empty after the
   * order's booking, or the other way round), or an entry whose {@code shipment_id} or {@code order_id}
   * is given twice. Whichever value a reader keeps, such a document proves nothing.
   */
  private static Arbitrary<String> keyTwice(Arbitrary<List<Entry>> lists) {
    Arbitrary<String> listsTwice = lists.flatMap(entries -> Arbitraries.of(
        "{\"shipments\":" + list(entries) + ",\"shipments\":[]}",
        "{\"shipments\":[],\"shipments\":" + list(entries) + "}"));
    Arbitrary<String> entryFieldTwice = ownBookings().flatMap(entry -> fieldTwice(entry.json().replace(OWN, ORDER)))
        .map(entry -> "{\"shipments\":[" + entry + "]}");
    return Arbitraries.oneOf(listsTwice, entryFieldTwice);
  }

  /** A booking with its {@code shipment_id} or its {@code order_id} given twice (each of {@link #ownBookings} has both). */
  private static Arbitrary<String> fieldTwice(String booking) {
    return Arbitraries.of("\"shipment_id\":\"SHP-9\",", "\"order_id\":\"ORD-OTHER\",").map(first -> "{" + first + booking.substring(1));
  }

  /** Bodies that are no well-formed JSON document of any shape the contract names. */
  public static Arbitrary<String> broken() {
    return Arbitraries.of("", "null", "[]", "{}", "<html><body>Bad Gateway</body></html>", "{\"shipments\":null}",
        "{\"shipments\":{}}", "{\"shipments\":\"[]\"}", "{\"shipments\":[]", "{\"shipments\":[]}}", "{\"shipments\":[]} trailing");
  }

  /** A lookup's answer, with what it means. */
  public static Arbitrary<GeneratedAnswer> lookupAnswers() {
    Arbitrary<List<Entry>> lists = Arbitraries.oneOf(extras(), spellings(), ownBookings()).list().ofMaxSize(4);
    Arbitrary<Body> wellFormed = lists.map(entries -> new Body(listing(entries), Optional.of(entries)));
    Arbitrary<Body> cutShort = lists.filter(entries -> !entries.isEmpty()).flatMap(entries -> {
      String whole = listing(entries);
      return Arbitraries.integers().between(1, whole.length() - 1).map(n -> new Body(whole.substring(0, n), Optional.empty()));
    });
    Arbitrary<Body> bodies = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, wellFormed),
        net.jqwik.api.Tuple.of(1, cutShort),
        net.jqwik.api.Tuple.of(2, broken().map(text -> new Body(text, Optional.empty()))),
        net.jqwik.api.Tuple.of(1, keyTwice(lists).map(text -> new Body(text, Optional.empty()))));
    return answers(Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(6, Arbitraries.just(200)), net.jqwik.api.Tuple.of(4, statuses())),
        bodies, PartnerAnswerGenerators::lookupMeaning);
  }

  /** A booking's answer, with what it means. */
  public static Arbitrary<GeneratedAnswer> bookingAnswers() {
    Arbitrary<Body> booking = ownBookings().map(entry -> new Body(entry.json().replace(OWN, ORDER), Optional.of(List.of(entry))));
    Arbitrary<Body> other = Arbitraries.oneOf(extras(), spellings()).map(entry -> new Body(entry.json().replace(OWN, ORDER), Optional.of(List.of(entry))));
    Arbitrary<Body> errors = partnersErrors().map(error -> new Body(error, Optional.empty()));
    Arbitrary<Body> bodies = Arbitraries.oneOf(booking, other, errors, broken().map(text -> new Body(text, Optional.empty())),
        booking.map(body -> new Body(body.text() + "x", Optional.empty())),
        booking.flatMap(body -> fieldTwice(body.text())).map(text -> new Body(text, Optional.empty())));
    return answers(Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, Arbitraries.of(201, 400, 422, 413, 415, 401, 429, 503)),
        net.jqwik.api.Tuple.of(2, statuses())), bodies, PartnerAnswerGenerators::bookingMeaning);
  }

  /** The partner's JSON error bodies, and some that only look like one. */
  public static Arbitrary<String> partnersErrors() {
    return Arbitraries.of("{\"error\":\"address_rejected\",\"message\":\"the courier could not validate the delivery address\"}",
        "{\"error\":\"invalid_request\"}", "{\"error\":\"\"}", "{\"error\":5}", "{\"error\":null}", "{\"message\":\"no\"}",
        "{\"error\":\"invalid_api_key\"}", "{\"error\":\"rate_limited\"}", "{\"error\":\"Bad Request\"}",
        "{\"error\":\"unsupported_destination\"} {", "{\"error\":\"\",\"error\":\"invalid_request\"}");
  }

  /** Any status a server can send, the contract's and a gateway's more often. */
  public static Arbitrary<Integer> statuses() {
    return Arbitraries.oneOf(Arbitraries.integers().between(100, 599),
        Arbitraries.of(200, 201, 204, 301, 302, 304, 307, 308, 400, 401, 404, 407, 408, 409, 413, 415, 421, 422, 429, 500, 502, 503, 504));
  }

  private static String listing(List<Entry> entries) {
    return "{\"shipments\":" + list(entries) + "}";
  }

  private static String list(List<Entry> entries) {
    return "[" + String.join(",", entries.stream().map(e -> e.json().replace(OWN, ORDER)).toList()) + "]";
  }

  private interface Meaning {
    Expected of(int status, Body body);
  }

  private static GeneratedAnswer answer(int status, List<String> headers, Body body, Optional<Double> cut, Meaning meaning) {
    Expected expected = cut.isPresent() || status < 200
        ? meaning.of(-1, body)
        : meaning.of(status, body);
    return new GeneratedAnswer(status, headers, body.text(), cut, expected);
  }

  private static Arbitrary<GeneratedAnswer> answers(Arbitrary<Integer> statuses, Arbitrary<Body> bodies, Meaning meaning) {
    Arbitrary<List<String>> headers = Arbitraries.of("Retry-After: 0", "Retry-After: 7", "Location: /v1/shipments",
        "Connection: close", "Content-Type: text/html", "WWW-Authenticate: Basic realm=\"partner\"").list().uniqueElements().ofMaxSize(3);
    Arbitrary<Optional<Double>> cuts = Arbitraries.doubles().between(0, 0.999).ofScale(3).optional(0.25);
    return Combinators.combine(statuses, headers, bodies, cuts).as((status, head, body, cut) -> answer(status, head, body, cut, meaning));
  }

  /** A lookup: only a whole 200 with a well-formed list says anything, and only a list with nothing of the order's says "none". */
  private static Expected lookupMeaning(int status, Body body) {
    if (status != 200 || body.entries().isEmpty()) {
      return Expected.failure(PartnerUnavailableException.class);
    }
    LinkedHashSet<String> own = new LinkedHashSet<>();
    body.entries().get().stream().filter(e -> e.kind() == Kind.OWN).forEach(e -> own.add(e.shipmentId().orElseThrow()));
    if (own.isEmpty() && body.entries().get().stream().anyMatch(e -> e.kind() == Kind.OWN_UNREADABLE)) {
      return Expected.failure(UnreadableBookingException.class);
    }
    return new Expected(Optional.empty(), List.copyOf(own));
  }

  /** A booking: docs/partner-api.md's table; an answer cut short or never final leaves the outcome unknown. */
  private static Expected bookingMeaning(int status, Body body) {
    return switch (status) {
      case 201 -> body.entries().filter(entries -> entries.getFirst().kind() == Kind.OWN)
          .map(entries -> new Expected(Optional.empty(), List.of(entries.getFirst().shipmentId().orElseThrow())))
          .orElse(Expected.failure(PartnerOutcomeUnknownException.class));
      case 400, 422 -> partnersVerdict(status, body.text())
          ? Expected.failure(PartnerRejectedException.class) : Expected.failure(PartnerOutcomeUnknownException.class);
      case 401 -> body.text().equals(KEY_REFUSED)
          ? Expected.failure(PartnerUnavailableException.class) : Expected.failure(PartnerOutcomeUnknownException.class);
      case 429 -> body.text().equals("{\"error\":\"rate_limited\"}")
          ? Expected.failure(PartnerUnavailableException.class) : Expected.failure(PartnerOutcomeUnknownException.class);
      default -> Expected.failure(PartnerOutcomeUnknownException.class);
    };
  }

  private static final String KEY_REFUSED = "{\"error\":\"invalid_api_key\"}";

  /** The contract's codes, each with its status; a gateway's error JSON of the same shape is no verdict. */
  private static boolean partnersVerdict(int status, String body) {
    return status == 422 && body.equals("{\"error\":\"address_rejected\",\"message\":\"the courier could not validate the delivery address\"}")
        || status == 400 && body.equals("{\"error\":\"invalid_request\"}");
  }

  /** A body and, when it is a well-formed document, the entries it was made of. */
  record Body(String text, Optional<List<Entry>> entries) {}

  /**
   * An answer the fuzzed partner puts on the wire, and what the client may make of it: PartnerContractFuzzTest
   * plays a try with any two of them, a lookup's and a booking's.
   */
  interface FuzzedAnswer {
    /** The bytes on the wire, echoing the request's {@code X-Request-Id}, and whether the partner closes the connection after them. */
    WireAnswer wire(String requestId);

    /** One request; two after the partner's 401, the client's own second call with the key re-read. */
    int requestsAllowed();

    /** Whether this answer, to a lookup, may prove the order has no booking: only then may a booking request leave. */
    boolean provesNothingBooked();

    /** Fails unless {@code result} (shipments, or the one booked) or {@code thrown} is what the client may make of this answer. */
    void check(List<Shipment> result, Throwable thrown);
  }

  /** What the client must make of an answer: a failure of exactly this class, or these shipments. */
  record Expected(Optional<Class<? extends PartnerException>> failure, List<String> shipmentIds) {
    static Expected failure(Class<? extends PartnerException> failure) {
      return new Expected(Optional.of(failure), List.of());
    }

    void check(List<Shipment> result, Throwable thrown, Object answer) {
      if (failure.isPresent()) {
        assertThat(thrown).as("what the client made of %s", answer).isExactlyInstanceOf(failure.get());
      } else {
        assertThat(thrown).as("what the client made of %s", answer).isNull();
        assertThat(result).as("the shipments read from %s", answer).extracting(Shipment::shipmentId).containsExactlyElementsOf(shipmentIds);
        assertThat(result).allSatisfy(shipment -> assertThat(shipment.orderId()).isEqualTo(ORDER));
      }
    }
  }

  /** One generated answer: its status line, headers and body, cut at a fraction of its bytes, or whole. */
  public record GeneratedAnswer(int status, List<String> headers, String body, Optional<Double> cut, Expected expected)
      implements FuzzedAnswer {
    /** The bytes on the wire. After a 1xx, a cut or {@code Connection: close} the partner closes the connection. */
    @Override
    public WireAnswer wire(String requestId) {
      StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(" Fuzzed\r\n");
      head.append("X-Request-Id: ").append(requestId).append("\r\n");
      headers.forEach(header -> head.append(header).append("\r\n"));
      byte[] content = body.getBytes(StandardCharsets.UTF_8);
      boolean informational = status < 200;
      if (!informational) {
        head.append("Content-Length: ").append(content.length).append("\r\n");
      }
      byte[] whole = (head.append("\r\n") + (informational ? "" : body)).getBytes(StandardCharsets.UTF_8);
      int length = cut.map(fraction -> (int) (fraction * whole.length)).orElse(whole.length);
      byte[] sent = java.util.Arrays.copyOf(whole, length);
      return new WireAnswer(sent, cut.isPresent() || informational || headers.contains("Connection: close"));
    }

    @Override
    public int requestsAllowed() {
      return status == 401 && body.equals(KEY_REFUSED) && cut.isEmpty() ? 2 : 1;
    }

    @Override
    public boolean provesNothingBooked() {
      return expected.failure().isEmpty() && expected.shipmentIds().isEmpty();
    }

    @Override
    public void check(List<Shipment> result, Throwable thrown) {
      expected.check(result, thrown, this);
    }

    @Override
    public String toString() {
      return status + " " + headers + " " + body + cut.map(f -> " cut at " + (int) (f * 100) + "%").orElse("");
    }
  }
}
