package com.acme.fulfil.partner;

import com.acme.fulfil.trace.TraceContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Optional;

/**
 * The partner as its contract allows it to behave (docs/partner-api.md), one choice at a time: every
 * answer a booking request may get, a lookup that fails or answers, and a booking that lands after its
 * caller gave up, as late as the contract's maximum. Answers go through the function's own
 * {@link PartnerAnswers}, so what a try concludes from them is what the function concludes. It never
 * deduplicates: every booking it makes is in {@link #bookings()}.
 */
public final class ScriptedPartner implements PartnerApi {
  /** What the model checker decides and where it may switch to another try. */
  public interface Script {
    int choose(String what, List<String> options);

    void gate(String step);

    Instant now();
  }

  /** Every answer the contract allows a booking request, and whether the partner booked for it. */
  public enum BookingAnswer {
    CREATED_201(true), UNAUTHORIZED_401(false), REJECTED_422(false), PROXY_PAGE_400(false), RATE_LIMITED_429(false),
    SERVER_ERROR_503_NOTHING_BOOKED(false), SERVER_ERROR_503_BOOKED(true), CLOSED_NOTHING_BOOKED(false),
    CLOSED_BOOKED(true),
    /**
     * The partner books after the caller gave up, and the caller's ending was an exception of the HTTP
     * client's own once the request may have left (an answer it cannot parse): nothing in the
     * exception's type says a booking may follow. The immediate endings above cover the client's
     * documented unknown outcome.
     */
    BOOKED_AFTER_THE_CALLER_GAVE_UP(false);

    final boolean booksNow;

    BookingAnswer(boolean booksNow) {
      this.booksNow = booksNow;
    }
  }

  /**
   * The clock stands still while tries race, so a request sent again after a 401 is answered as a first
   * request would be; what the 401 adds is a step between the two requests, and these answers play it.
   */
  private static final List<BookingAnswer> AFTER_KEY_RE_READ =
      List.of(BookingAnswer.CREATED_201, BookingAnswer.UNAUTHORIZED_401, BookingAnswer.CLOSED_BOOKED);

  /**
   * What a lookup may answer: the order's bookings, those and another order's shipment, a 503, or the
   * order's bookings with its id echoed upper-cased: a quirk of the partner's lookup after an unanswered
   * booking, offered at the first lookup after healing that lists a booking, when a try that comes back
   * looks the order up.
   */
  public enum LookupAnswer { OK_200, OK_200_ANOTHER_ORDERS_SHIPMENT_LISTED_TOO, UNAVAILABLE_503, OK_200_ECHOED_IN_CAPITALS }

  /** One for every run: a mapper of its own would learn the answers' types again in each of the model's runs. */
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Script script;
  private final Duration contractMaximum;
  private final List<LookupAnswer> lookupAnswers;
  private final PartnerAnswers answers = new PartnerAnswers(JSON);
  private final List<Shipment> booked = new ArrayList<>();
  private final List<LateBooking> landingLater = new ArrayList<>();
  private volatile boolean healthy;
  /** The first lookup after healing that lists a booking has been answered: the echo has worn off. */
  private boolean echoWornOff;
  private int nextShipment = 1;

  /** @param lookupAnswers the lookup answers the script chooses among, while the partner is unhealthy */
  public ScriptedPartner(Script script, Duration contractMaximum, Set<LookupAnswer> lookupAnswers) {
    this.script = script;
    this.contractMaximum = contractMaximum;
    this.lookupAnswers = List.copyOf(lookupAnswers);
  }

  /** From now on every request is answered as it should be: 201, lookups 200. */
  public void heal() {
    healthy = true;
  }

  /**
   * A booking the partner makes after its caller gave up: it may appear at any moment until the
   * contract's maximum after the partner received the request, which is at the latest when the caller
   * stopped waiting ({@code landBy} is unknown while the caller still waits).
   */
  private static final class LateBooking {
    final Shipment shipment;
    final String requestId;
    volatile Instant landBy;

    LateBooking(Shipment shipment, String requestId) {
      this.shipment = shipment;
      this.requestId = requestId;
    }
  }

  /** Every booking made, landed or still to land. */
  public synchronized List<Shipment> bookings() {
    List<Shipment> all = new ArrayList<>(booked);
    landingLater.forEach(late -> all.add(late.shipment));
    return all;
  }

  /** The tries ({@code X-Request-Id}, their attempt ids) whose booking the partner may still make. */
  public synchronized java.util.Set<String> triesThatMayStillBook() {
    java.util.Set<String> tries = new java.util.HashSet<>();
    landingLater.forEach(late -> tries.add(late.requestId));
    return tries;
  }

  public synchronized boolean hasLateBooking() {
    return !landingLater.isEmpty();
  }

  /** A booking made after its caller gave up appears now (at the latest, the contract's maximum after its POST). */
  public synchronized void landLateBookings() {
    landingLater.forEach(late -> booked.add(late.shipment));
    landingLater.clear();
  }

  /** Lands every late booking the contract does not let wait beyond {@code now}: time is passing. */
  public synchronized void landLateBookingsDueBy(Instant now) {
    landingLater.removeIf(late -> {
      boolean due = late.landBy != null && !late.landBy.isAfter(now);
      if (due) {
        booked.add(late.shipment);
      }
      return due;
    });
  }

  public Duration contractMaximum() {
    return contractMaximum;
  }

  @Override
  public Shipment book(ShipmentRequest request, String requestId, Optional<TraceContext> trace, Deadline deadline) {
    script.gate("POST " + requestId.substring(0, 4));
    return answer(request, requestId, false);
  }

  /** One booking request's answer; a 401 is sent again once, as PartnerClient does after re-reading the key. */
  private Shipment answer(ShipmentRequest request, String requestId, boolean keyReRead) {
    List<BookingAnswer> allowed = keyReRead ? AFTER_KEY_RE_READ : List.of(BookingAnswer.values());
    BookingAnswer answer = healthy ? BookingAnswer.CREATED_201
        : allowed.get(script.choose(keyReRead ? "answer to POST sent again" : "answer to POST", names(allowed)));
    Shipment shipment = null;
    LateBooking late = null;
    synchronized (this) {
      if (answer.booksNow || answer == BookingAnswer.BOOKED_AFTER_THE_CALLER_GAVE_UP) {
        shipment = new Shipment("SHP-" + nextShipment++, request.orderId(), "Evri", "T", "https://label");
        if (answer.booksNow) {
          booked.add(shipment);
        } else {
          late = new LateBooking(shipment, requestId);
          landingLater.add(late);
        }
      }
    }
    // Time may pass here: the request travels, the partner works; the caller waits, or dies waiting.
    try {
      script.gate("POST " + requestId.substring(0, 4) + " answered " + answer);
    } finally {
      if (late != null) {
        late.landBy = script.now().plus(contractMaximum);
      }
    }
    return switch (answer) {
      case CREATED_201 -> answers.booking(request.orderId(), 201, write(shipment), null);
      case UNAUTHORIZED_401 -> keyReRead
          ? answers.booking(request.orderId(), 401, "{\"error\":\"unauthorized\",\"message\":\"bad key\"}", null)
          : answer(request, requestId, true);
      case REJECTED_422 -> answers.booking(request.orderId(), 422, "{\"error\":\"address_rejected\",\"message\":\"no\"}", null);
      case PROXY_PAGE_400 -> answers.booking(request.orderId(), 400, "<html>Bad Request</html>", null);
      case RATE_LIMITED_429 -> answers.booking(request.orderId(), 429, "", "7");
      case SERVER_ERROR_503_NOTHING_BOOKED, SERVER_ERROR_503_BOOKED -> answers.booking(request.orderId(), 503, "", null);
      case CLOSED_NOTHING_BOOKED, CLOSED_BOOKED ->
          throw new PartnerOutcomeUnknownException("connection closed without an answer", null);
      case BOOKED_AFTER_THE_CALLER_GAVE_UP -> throw new IllegalStateException("code < 0: -77");
    };
  }

  @Override
  public List<Shipment> lookup(String orderId, String requestId, Optional<TraceContext> trace, Deadline deadline) {
    script.gate("GET " + requestId.substring(0, 4));
    List<Shipment> listed;
    synchronized (this) {
      listed = new ArrayList<>(booked.stream().filter(s -> s.orderId().equals(orderId)).toList());
    }
    List<LookupAnswer> allowed = lookupAnswers.stream()
        .filter(a -> healthy ? a == LookupAnswer.OK_200 || a == LookupAnswer.OK_200_ECHOED_IN_CAPITALS && !listed.isEmpty() && !echoWornOff
            : a != LookupAnswer.OK_200_ECHOED_IN_CAPITALS)
        .toList();
    LookupAnswer answer = allowed.size() == 1 ? allowed.getFirst()
        : allowed.get(script.choose("answer to GET", allowed.stream().map(Enum::name).toList()));
    echoWornOff |= healthy && !listed.isEmpty();
    if (answer == LookupAnswer.UNAVAILABLE_503) {
      return answers.lookup(orderId, 503, "");
    }
    if (answer == LookupAnswer.OK_200_ANOTHER_ORDERS_SHIPMENT_LISTED_TOO) {
      listed.add(new Shipment("SHP-OTHER", "ORD-SOMEONE-ELSE", "Evri", "T", "https://label"));
    }
    if (answer == LookupAnswer.OK_200_ECHOED_IN_CAPITALS) {
      listed.replaceAll(s -> new Shipment(s.shipmentId(), s.orderId().toUpperCase(java.util.Locale.ROOT), s.courier(),
          s.trackingNumber(), s.labelUrl()));
    }
    return answers.lookup(orderId, 200, "{\"shipments\":" + write(listed) + "}");
  }

  private static List<String> names(List<BookingAnswer> answers) {
    return answers.stream().map(Enum::name).toList();
  }

  private String write(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
