package com.acme.fulfil.sim;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The fulfilment partner's API v1 on loopback, with its bad days on demand.
 *
 * <p>It behaves like the contract in {@code docs/partner-api.md}: {@code POST
 * /v1/shipments} books, {@code GET /v1/shipments?order_id=} lists every booking for an order
 * oldest first, {@code X-Api-Key} must be the current key, {@code X-Request-Id} is echoed. Above
 * all it <b>never deduplicates</b>: every booking POST appends to the ledger, at the moment the
 * booking is made and whether or not its response ever reaches the caller. A healthy booking is
 * made when its latency has passed, just before the 201 is written, so a caller that gives up
 * early can look up, find nothing, book again, and end with two bookings, as with the real one.
 *
 * <p>Permanent rejections by content, so a local run or a soak can make partner-rejected orders
 * without scripting (both answered after a booking's latency, with nothing booked):
 * <ul>
 *   <li>{@code ship_to.country} {@value #UNSUPPORTED_COUNTRY} → {@code 422
 *       {"error":"unsupported_destination",...}}
 *   <li>{@code ship_to.postcode} {@value #REJECTED_POSTCODE} (exactly) → {@code 422
 *       {"error":"address_rejected",...}}
 *   <li>a body that breaks the order message's rules (not a JSON object, bad {@code order_id},
 *       {@code service}, {@code ship_to} field or {@code parcels}, or a Content-Type that is not
 *       {@code application/json}) → {@code 400 {"error":"invalid_request",...}} at once.
 * </ul>
 *
 * <p>Modes ({@link #healthy()}, {@link #degraded(double)}, {@link #outage()}, optionally for a
 * window) change the whole partner; {@link #script()} changes single requests. Latencies come from
 * the {@link LatencyModel} divided by the time-scale divisor (30 in the local run: the incident's
 * 40 s peak becomes 1.33 s, its 280 s tail 9.33 s); scripted delays and windows are real time.
 */
public final class SimulatedPartner implements AutoCloseable {

  /** {@code ship_to.country} that the partner does not deliver to. */
  public static final String UNSUPPORTED_COUNTRY = "ZZ";
  /** {@code ship_to.postcode} that the courier's address check refuses. */
  public static final String REJECTED_POSTCODE = "REJECTED";

  private final PartnerLedger ledger = new PartnerLedger();
  private final PartnerScript script = new PartnerScript();
  private final PartnerConditions conditions;
  private final LoopbackServer server;

  private SimulatedPartner(Builder builder) {
    this.conditions = new PartnerConditions(builder.apiKey, builder.clock);
    PartnerPace pace = new PartnerPace(builder.latency, builder.timeScaleDivisor, builder.seed);
    JsonMapper json = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    this.server = LoopbackServer.start(new PartnerHandler(ledger, script, conditions, pace, json));
  }

  /** A partner that answers at once and accepts {@code apiKey}: the usual start for a test. */
  public static SimulatedPartner start(String apiKey) {
    return builder().apiKey(apiKey).start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code http://127.0.0.1:<port>}: the value for {@code PARTNER_BASE_URL}. */
  public URI baseUrl() {
    return server.uri();
  }

  /** The key the partner accepts right now. */
  public String apiKey() {
    return conditions.acceptedKey();
  }

  /** The partner's cut-over: from now on only {@code newKey} is accepted, the old one gets 401. */
  public void rotateKey(String newKey) {
    conditions.rotateKey(newKey);
  }

  public PartnerMode mode() {
    return conditions.current().mode();
  }

  /** Back to normal service, ending any degraded or outage mode. */
  public void healthy() {
    conditions.set(PartnerMode.HEALTHY, 0, Optional.empty());
  }

  /**
   * Until {@link #healthy()}: bookings take tail latencies and {@code unavailableShare} (0 to 1)
   * of them answer 503 quickly, booking nothing. Lookups are unaffected.
   */
  public void degraded(double unavailableShare) {
    conditions.set(PartnerMode.DEGRADED, unavailableShare, Optional.empty());
  }

  /** {@link #degraded(double)} for {@code window} (real time), then healthy again. */
  public void degraded(double unavailableShare, Duration window) {
    conditions.set(PartnerMode.DEGRADED, unavailableShare, Optional.of(window));
  }

  /** Until {@link #healthy()}: every request answers 503 at once, before the key is checked. */
  public void outage() {
    conditions.set(PartnerMode.OUTAGE, 0, Optional.empty());
  }

  /** {@link #outage()} for {@code window} (real time), then healthy again. */
  public void outage(Duration window) {
    conditions.set(PartnerMode.OUTAGE, 0, Optional.of(window));
  }

  /** Per-request reactions; see {@link PartnerScript}. */
  public PartnerScript script() {
    return script;
  }

  /** Every booking made for {@code orderId}, oldest first. */
  public List<Booking> bookingsFor(String orderId) {
    return ledger.bookingsFor(Objects.requireNonNull(orderId, "orderId"));
  }

  /** Every booking made, oldest first. */
  public List<Booking> bookings() {
    return ledger.bookings();
  }

  /** Every request to {@code /v1/shipments}, in arrival order, with its {@code X-Request-Id}. */
  public List<PartnerRequest> requests() {
    return ledger.requests();
  }

  /**
   * Every latency the partner drew from its model and waited out before answering (a lookup, a booking,
   * a degraded 503), in the order it began; scripted reactions' delays are the test's, not drawn.
   */
  public List<PartnerLatency> latencies() {
    return ledger.latencies();
  }

  /** POST requests received, whatever became of them. */
  public int postCount() {
    return ledger.count("POST");
  }

  /** GET requests received, whatever became of them. */
  public int lookupCount() {
    return ledger.count("GET");
  }

  /** Lookups (GET) of {@code orderId} received, whatever became of them. */
  public int lookupCount(String orderId) {
    return ledger.count("GET", Objects.requireNonNull(orderId, "orderId"));
  }

  /** Requests answered 401 (missing, old or wrong key). */
  public int unauthorizedCount() {
    return ledger.unauthorizedCount();
  }

  /** POSTs being handled right now (sleeping, held or answering). */
  public int postsInFlight() {
    return ledger.postsInFlight();
  }

  /** The most POSTs ever in flight at once since start or {@link #reset()}. */
  public int peakConcurrentPosts() {
    return ledger.peakPostsInFlight();
  }

  /**
   * Waits until {@code orderId} has at least {@code count} bookings or {@code timeout} passes, and
   * returns its bookings either way (assert on the result).
   */
  public List<Booking> awaitBookings(String orderId, int count, Duration timeout) throws InterruptedException {
    ledger.await(() -> ledger.bookingsFor(orderId).size() >= count, timeout);
    return bookingsFor(orderId);
  }

  /** Waits until at least {@code count} bookings exist in all, or {@code timeout} passes; returns them all. */
  public List<Booking> awaitBookings(int count, Duration timeout) throws InterruptedException {
    ledger.await(() -> ledger.bookings().size() >= count, timeout);
    return bookings();
  }

  /** Waits until at least {@code count} POSTs arrived or {@code timeout} passes; returns the count. */
  public int awaitPosts(int count, Duration timeout) throws InterruptedException {
    ledger.await(() -> ledger.count("POST") >= count, timeout);
    return postCount();
  }

  /**
   * Back to the state at start: ledger, counters and script emptied, the initial key accepted,
   * healthy, and every held connection released (closed without an answer).
   */
  public void reset() {
    script.clear();
    conditions.reset();
    ledger.clear();
  }

  @Override
  public void close() {
    conditions.releaseHeld();
    server.close();
  }

  /** Settings read once, at start. */
  public static final class Builder {
    private String apiKey = "partner-key-1";
    private LatencyModel latency = LatencyModel.instant();
    private int timeScaleDivisor = 1;
    private long seed = 1;
    private InstantSource clock = InstantSource.system();

    private Builder() {}

    /** The key accepted at start and after {@link #reset()}. */
    public Builder apiKey(String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /** Default {@link LatencyModel#instant()}. */
    public Builder latency(LatencyModel latency) {
      this.latency = latency;
      return this;
    }

    /** Partner time divided by this is real time; default 1, the local run uses 30. */
    public Builder timeScaleDivisor(int timeScaleDivisor) {
      this.timeScaleDivisor = timeScaleDivisor;
      return this;
    }

    /** Seed of the generator behind latencies and degraded failures; default 1. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** The clock that ends mode windows; default the system clock. */
    public Builder clock(InstantSource clock) {
      this.clock = clock;
      return this;
    }

    public SimulatedPartner start() {
      return new SimulatedPartner(this);
    }
  }
}
