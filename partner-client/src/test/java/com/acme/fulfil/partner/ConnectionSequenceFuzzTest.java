package com.acme.fulfil.partner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.acme.fulfil.partner.WirePartner.Received;
import com.acme.fulfil.partner.WirePartner.WireAnswer;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Exchanges in sequence, on connections that live from one to the next: the fault class PartnerContractFuzzTest, which
 * mangles one exchange at a time on a connection of its own, cannot reach. The partner answers every request with its
 * own answer (a lookup lists nothing: the partner is still booking what it was asked, as it does for 30-60 s), and
 * after any answer an intermediary may leave a second complete answer on the connection: a proof of "not booked"
 * (429, 401, 400), an empty listing or a booking, echoing the id of the request just answered or none. Tries of two
 * orders run in a generated order, each as the function's does: look up, book only after a lookup that found
 * nothing, and stop trying an order once it is booked or its outcome is unknown (the hold outlasts the run).
 *
 * <p>Invariant: the partner books each order at most once, whatever the connections carried.
 */
class ConnectionSequenceFuzzTest {
  private static final List<String> ORDERS = List.of("ORD-SEQ-A", "ORD-SEQ-B");
  private static WiredPartnerClient partner;
  private static WirePartner wire;
  private static PartnerClient client;
  private static final AtomicInteger SEQUENCES = new AtomicInteger();
  private static long started;

  @BeforeContainer
  static void start() {
    started = System.nanoTime();
    partner = WiredPartnerClient.start();
    wire = partner.wire();
    client = partner.client();
  }

  @AfterContainer
  static void stop() throws IOException {
    partner.close();
    System.out.printf("ConnectionSequenceFuzzTest: %d sequences of tries on shared connections in %.1f s%n", SEQUENCES.get(),
        (System.nanoTime() - started) / 1e9);
  }

  /** What the partner does with a booking request, and answers. */
  enum Outcome {
    BOOKED(true), RATE_LIMITED(false), REJECTED(false), UNAVAILABLE(true);

    final boolean books;

    Outcome(boolean books) {
      this.books = books;
    }
  }

  /** What an intermediary leaves on the connection after an answer. */
  enum Stray { NONE, RATE_LIMITED, KEY_REFUSED, REJECTED, EMPTY_LISTING, BOOKING }

  /** The partner's answer to one request, the stray answer after it, and whether that echoes the request just answered. */
  record Turn(Outcome outcome, Stray stray, boolean strayEchoes) {
    @Override
    public String toString() {
      return outcome + (stray == Stray.NONE ? "" : " then stray " + stray + (strayEchoes ? " (echoing it)" : " (no id)"));
    }
  }

  @Provide
  Arbitrary<List<Turn>> turns() {
    Arbitrary<Stray> strays = Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, Arbitraries.just(Stray.NONE)),
        net.jqwik.api.Tuple.of(2, Arbitraries.of(Stray.class)));
    return Combinators.combine(Arbitraries.of(Outcome.class), strays, Arbitraries.of(true, false)).as(Turn::new)
        .list().ofMinSize(1).ofMaxSize(12);
  }

  @Provide
  Arbitrary<List<Integer>> tries() {
    return Arbitraries.integers().between(0, ORDERS.size() - 1).list().ofMinSize(2).ofMaxSize(8);
  }

  @Property(tries = 400)
  void noOrderIsBookedTwiceWhateverAnIntermediaryLeavesOnAConnection(@ForAll("turns") List<Turn> turns,
      @ForAll("tries") List<Integer> tries) {
    // Each sequence's tries have an attempt id of their own: a request of an earlier sequence that the partner reads
    // only now (its client took a stray answer and went on) is answered, and counted for none.
    String attempt = "seq" + SEQUENCES.incrementAndGet();
    partner.http().connectionPool().evictAll();
    Map<String, AtomicInteger> booked = new ConcurrentHashMap<>();
    AtomicInteger request = new AtomicInteger();
    wire.answerWith(received -> {
      Turn turn = turns.get(request.getAndIncrement() % turns.size());
      boolean ours = received.requestId().equals(attempt) || received.requestId().startsWith(attempt + "-");
      return WireAnswer.of(answer(received, turn, ours ? booked : new ConcurrentHashMap<>()) + stray(turn, received.requestId()),
          false);
    });

    List<String> done = new ArrayList<>();
    List<String> story = new ArrayList<>();
    for (int next : tries) {
      String orderId = ORDERS.get(next);
      if (!done.contains(orderId)) {
        story.add(orderId + ": " + tryToBook(orderId, attempt, done));
      }
    }

    ORDERS.forEach(orderId -> assertThat(booked.getOrDefault(orderId, new AtomicInteger()).get())
        .as("bookings the partner made for %s; the partner answered %s; the tries: %s", orderId, turns, story)
        .isLessThanOrEqualTo(1));
  }

  /** One try as the function's: what it came to, for the failure's report. */
  private static String tryToBook(String orderId, String attempt, List<String> done) {
    List<Shipment> found;
    try {
      found = client.lookup(orderId, attempt, Optional.empty(), deadline());
    } catch (PartnerException lookupFailed) {
      return "lookup failed";
    }
    if (!found.isEmpty()) {
      done.add(orderId);
      return "adopted";
    }
    Throwable failure = catchThrowable(() -> client.book(request(orderId), attempt, Optional.empty(), deadline()));
    if (failure instanceof PartnerException answer && answer.notBooked().isPresent()) {
      return "not booked (" + failure.getMessage() + ")";
    }
    done.add(orderId);
    return failure == null ? "booked" : "unknown (" + failure.getMessage() + ")";
  }

  private static String answer(Received received, Turn turn, Map<String, AtomicInteger> booked) {
    String id = received.requestId();
    if (received.method().equals("GET")) {
      return WirePartner.answer(200, id, "{\"shipments\":[]}");
    }
    String orderId = ORDERS.stream().filter(received.body()::contains).findFirst().orElseThrow();
    if (turn.outcome().books) {
      booked.computeIfAbsent(orderId, o -> new AtomicInteger()).incrementAndGet();
    }
    return switch (turn.outcome()) {
      case BOOKED -> WirePartner.answer(201, id, booking(orderId));
      case RATE_LIMITED -> WirePartner.answer(429, id, "{\"error\":\"rate_limited\"}", "Retry-After: 30");
      case REJECTED -> WirePartner.answer(400, id, "{\"error\":\"invalid_request\"}");
      case UNAVAILABLE -> WirePartner.answer(503, id, "");
    };
  }

  private static String stray(Turn turn, String answeredId) {
    String id = turn.strayEchoes() ? answeredId : null;
    return switch (turn.stray()) {
      case NONE -> "";
      case RATE_LIMITED -> WirePartner.answer(429, id, "{\"error\":\"rate_limited\"}", "Retry-After: 30");
      case KEY_REFUSED -> WirePartner.answer(401, id, "{\"error\":\"invalid_api_key\"}");
      case REJECTED -> WirePartner.answer(400, id, "{\"error\":\"invalid_request\"}");
      case EMPTY_LISTING -> WirePartner.answer(200, id, "{\"shipments\":[]}");
      case BOOKING -> WirePartner.answer(201, id, booking(ORDERS.getFirst()));
    };
  }

  private static String booking(String orderId) {
    return "{\"shipment_id\":\"SHP-" + orderId + "\",\"order_id\":\"" + orderId + "\",\"courier\":\"DPD\"}";
  }

  private static ShipmentRequest request(String orderId) {
    return TestOrder.booking(orderId);
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(10));
  }
}
