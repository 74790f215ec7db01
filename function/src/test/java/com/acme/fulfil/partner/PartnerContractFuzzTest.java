package com.acme.fulfil.partner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.acme.fulfil.order.OrderMessage;
import com.acme.fulfil.order.Parcel;
import com.acme.fulfil.order.Service;
import com.acme.fulfil.order.ShipTo;
import com.acme.fulfil.partner.PartnerAnswerGenerators.GeneratedAnswer;
import com.acme.fulfil.partner.WirePartner.Received;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 * nothing to find.
 *
 * <p>Invariants: a call puts one request on the wire (two after a 401: the key re-read); a booking
 * request leaves only after a well-formed lookup that listed nothing of the order's; each answer is
 * classified as docs/partner-api.md says ({@link PartnerAnswerGenerators} computes the expectation from
 * what it generated, not from the client); nothing escapes but the client's documented outcomes.
 */
class PartnerContractFuzzTest {
  private static final AtomicInteger LOOKUPS = new AtomicInteger();
  private static final AtomicInteger BOOKINGS = new AtomicInteger();
  private static final ShipmentRequest REQUEST = ShipmentRequest.of(new OrderMessage(PartnerAnswerGenerators.ORDER,
      Instant.parse("2026-11-20T14:03:11Z"), Service.STANDARD, new ShipTo("A Person", "1 A Street", null, "London", "SW1Y 4JH", "GB"),
      List.of(new Parcel(1200))));
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
    System.out.printf("PartnerContractFuzzTest: %d generated lookup answers and %d generated booking answers tried in %.1f s%n",
        LOOKUPS.get(), BOOKINGS.get(), (System.nanoTime() - started) / 1e9);
  }

  @Provide
  Arbitrary<GeneratedAnswer> lookups() {
    return PartnerAnswerGenerators.lookupAnswers();
  }

  @Provide
  Arbitrary<GeneratedAnswer> bookings() {
    return PartnerAnswerGenerators.bookingAnswers();
  }

  @Property(tries = 1500)
  void aTryLooksUpAndBooksOnlyOnProofThatNothingIsThere(@ForAll("lookups") GeneratedAnswer lookup,
      @ForAll("bookings") GeneratedAnswer booking) {
    // Each try stands alone: no connection a generated answer left behind serves the next try.
    http.connectionPool().evictAll();
    wire.answerWith(request -> (request.method().equals("GET") ? lookup : booking).wire());

    LOOKUPS.incrementAndGet();
    AtomicReference<List<Shipment>> found = new AtomicReference<>();
    Throwable lookupFailure = catchThrowable(() -> found.set(client.lookup(PartnerAnswerGenerators.ORDER, "try", Optional.empty(), deadline())));
    lookup.check(found.get(), lookupFailure);

    boolean books = found.get() != null && found.get().isEmpty();
    if (books) {
      BOOKINGS.incrementAndGet();
      AtomicReference<Shipment> booked = new AtomicReference<>();
      Throwable bookingFailure = catchThrowable(() -> booked.set(client.book(REQUEST, "try", Optional.empty(), deadline())));
      booking.check(Optional.ofNullable(booked.get()).map(List::of).orElse(null), bookingFailure);
    }

    List<Received> received = wire.received();
    assertThat(received.stream().filter(r -> r.method().equals("GET")).count()).as("lookup requests for %s", lookup)
        .isLessThanOrEqualTo(lookup.requestsAllowed());
    long posts = received.stream().filter(r -> r.method().equals("POST")).count();
    assertThat(posts).as("booking requests for %s then %s", lookup, booking)
        .isLessThanOrEqualTo(lookup.provesNothingBooked() ? booking.requestsAllowed() : 0);
  }

  /** Bookings on their own, as after an empty lookup: the try above books in few of its tries, as it should. */
  @Property(tries = 1500)
  void aBookingIsClassifiedAsTheContractSaysWithOneRequestOnTheWire(@ForAll("bookings") GeneratedAnswer booking) {
    http.connectionPool().evictAll();
    wire.answerWith(request -> booking.wire());

    BOOKINGS.incrementAndGet();
    AtomicReference<Shipment> booked = new AtomicReference<>();
    Throwable failure = catchThrowable(() -> booked.set(client.book(REQUEST, "try", Optional.empty(), deadline())));
    booking.check(Optional.ofNullable(booked.get()).map(List::of).orElse(null), failure);

    assertThat(wire.received()).as("booking requests for %s", booking).hasSizeLessThanOrEqualTo(booking.requestsAllowed());
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(10));
  }
}
