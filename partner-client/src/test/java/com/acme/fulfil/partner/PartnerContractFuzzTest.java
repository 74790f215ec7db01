package com.acme.fulfil.partner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.acme.fulfil.partner.PartnerAnswerGenerators.FuzzedAnswer;
import com.acme.fulfil.partner.PartnerAnswerGenerators.GeneratedAnswer;
import com.acme.fulfil.partner.RawAnswerGenerators.Effect;
import com.acme.fulfil.partner.RawAnswerGenerators.RawAnswer;
import com.acme.fulfil.partner.WirePartner.Received;
import java.io.IOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import okhttp3.OkHttpClient;

/**
 * The partner's contract, fuzzed: a raw loopback partner answers the real {@link PartnerClient}'s
 * lookup and booking with generated answers (any status, headers that invite a follow-up, bodies
 * valid, truncated, wrongly typed, with trailing bytes or a key twice, listing foreign, duplicate or
 * unreadable shipments or the order's id spelled otherwise, the connection closed at any byte), and
 * each try does what a try of the function does: look up, and book only when the lookup proved there is
 * nothing to find. The same answers go out again as raw bytes with their framing mangled
 * ({@link RawAnswerGenerators}: bad status lines and header lines, Content-Length negative, no number,
 * twice or off, chunked encoding whole and broken, over 1 MiB).
 *
 * <p>Invariants: a call puts one request on the wire (two after a 401: the key re-read); a booking
 * request leaves only after a lookup that proved the order has no booking; each intact answer is
 * classified as docs/partner-api.md says ({@link PartnerAnswerGenerators} computes the expectation from
 * what it generated, not from the client); an answer whose framing voids it frees no order (no proof, no
 * shipment, no list), and one OkHttp reads leniently means no more than it did whole; nothing escapes
 * but the client's documented outcomes.
 *
 * <p>Each property takes jqwik's default number of tries, which this module's pom sets from
 * {@code partner-fuzz.tries}: 750 on every build, 6,000 in CI's nightly run (docs/testing.md).
 */
class PartnerContractFuzzTest {
  private static final Tally GENERATED = new Tally();
  private static final Tally RAW = new Tally();
  private static final ShipmentRequest REQUEST = TestOrder.booking(PartnerAnswerGenerators.ORDER);
  private static long started;
  private static WiredPartnerClient partner;
  private static WirePartner wire;
  private static OkHttpClient http;
  private static PartnerClient client;

  @BeforeContainer
  static void start() {
    started = System.nanoTime();
    partner = WiredPartnerClient.start();
    wire = partner.wire();
    http = partner.http();
    client = partner.client();
  }

  @AfterContainer
  static void stop() throws IOException {
    partner.close();
    System.out.printf("PartnerContractFuzzTest: %d generated lookup answers and %d generated booking answers, %d raw lookup answers and"
        + " %d raw booking answers (framings %s) tried in %.1f s%n", GENERATED.lookups.get(), GENERATED.bookings.get(),
        RAW.lookups.get(), RAW.bookings.get(), RAW.framings, (System.nanoTime() - started) / 1e9);
  }

  @Provide
  Arbitrary<GeneratedAnswer> lookups() {
    return PartnerAnswerGenerators.lookupAnswers();
  }

  @Provide
  Arbitrary<GeneratedAnswer> bookings() {
    return PartnerAnswerGenerators.bookingAnswers();
  }

  @Provide
  Arbitrary<RawAnswer> rawLookups() {
    return RawAnswerGenerators.lookups();
  }

  @Provide
  Arbitrary<RawAnswer> rawBookings() {
    return RawAnswerGenerators.bookings();
  }

  @Property
  void aTryLooksUpAndBooksOnlyOnProofThatNothingIsThere(@ForAll("lookups") GeneratedAnswer lookup,
      @ForAll("bookings") GeneratedAnswer booking) {
    tryToBook(GENERATED, lookup, booking);
  }

  /** Bookings on their own, as after an empty lookup: the try above books in few of its tries, as it should. */
  @Property
  void aBookingIsClassifiedAsTheContractSaysWithOneRequestOnTheWire(@ForAll("bookings") GeneratedAnswer booking) {
    book(GENERATED, booking);
  }

  @Property
  void onRawBytesATryBooksOnlyAfterALookupWhoseFramingLeftItsProofWhole(@ForAll("rawLookups") RawAnswer lookup,
      @ForAll("rawBookings") RawAnswer booking) {
    tryToBook(RAW, lookup, booking);
  }

  @Property
  void onRawBytesOnlyAnIntactListedAnswerFreesABookedOrder(@ForAll("rawBookings") RawAnswer booking) {
    book(RAW, booking);
  }

  /** A try: the lookup, then the booking only if the lookup listed nothing of the order's; every request on the wire counted. */
  private static void tryToBook(Tally tally, FuzzedAnswer lookup, FuzzedAnswer booking) {
    // Each try stands alone: no connection a generated answer left behind serves the next try.
    http.connectionPool().evictAll();
    wire.answerWith(request -> (request.method().equals("GET") ? lookup : booking).wire(request.requestId()));

    tally.sent(lookup, tally.lookups);
    AtomicReference<List<Shipment>> found = new AtomicReference<>();
    Throwable lookupFailure = catchThrowable(() -> found.set(client.lookup(PartnerAnswerGenerators.ORDER, "try", Optional.empty(), deadline())));
    lookup.check(found.get(), lookupFailure);

    boolean books = found.get() != null && found.get().isEmpty();
    if (books) {
      tally.sent(booking, tally.bookings);
      AtomicReference<Shipment> booked = new AtomicReference<>();
      Throwable bookingFailure = catchThrowable(() -> booked.set(client.book(REQUEST, "try", Optional.empty(), deadline())));
      booking.check(Optional.ofNullable(booked.get()).map(List::of).orElse(null), bookingFailure);
    }

    List<Received> received = wire.received();
    // A lookup that brought no answer goes again once, on a fresh connection.
    assertThat(received.stream().filter(r -> r.method().equals("GET")).count()).as("lookup requests for %s", lookup)
        .isLessThanOrEqualTo(2L * lookup.requestsAllowed());
    long posts = received.stream().filter(r -> r.method().equals("POST")).count();
    assertThat(posts).as("booking requests for %s then %s", lookup, booking)
        .isLessThanOrEqualTo(lookup.provesNothingBooked() ? booking.requestsAllowed() : 0);
  }

  private static void book(Tally tally, FuzzedAnswer booking) {
    http.connectionPool().evictAll();
    wire.answerWith(request -> booking.wire(request.requestId()));

    tally.sent(booking, tally.bookings);
    AtomicReference<Shipment> booked = new AtomicReference<>();
    Throwable failure = catchThrowable(() -> booked.set(client.book(REQUEST, "try", Optional.empty(), deadline())));
    booking.check(Optional.ofNullable(booked.get()).map(List::of).orElse(null), failure);

    assertThat(wire.received()).as("booking requests for %s", booking).hasSizeLessThanOrEqualTo(booking.requestsAllowed());
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(10));
  }

  /** The answers of one kind the properties sent: how many to lookups, how many to bookings, and of raw ones, how framed. */
  private record Tally(AtomicInteger lookups, AtomicInteger bookings, Map<Effect, AtomicInteger> framings) {
    Tally() {
      this(new AtomicInteger(), new AtomicInteger(), new EnumMap<>(Map.of(Effect.INTACT, new AtomicInteger(),
          Effect.VOID, new AtomicInteger(), Effect.LENIENT, new AtomicInteger())));
    }

    void sent(FuzzedAnswer answer, AtomicInteger call) {
      call.incrementAndGet();
      if (answer instanceof RawAnswer raw) {
        framings.get(raw.framing().effect()).incrementAndGet();
      }
    }
  }
}
