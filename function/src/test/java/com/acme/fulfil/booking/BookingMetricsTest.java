package com.acme.fulfil.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.local.aws.DynamoDbEmulator;
import com.acme.fulfil.observability.FulfilmentMetrics;
import com.acme.fulfil.trace.TraceContext;
import com.acme.fulfil.order.OrderMessage;
import com.acme.fulfil.partner.TestOrder;
import com.acme.fulfil.partner.Deadline;
import com.acme.fulfil.partner.PartnerApi;
import com.acme.fulfil.partner.Shipment;
import com.acme.fulfil.partner.ShipmentRequest;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.lambda.powertools.metrics.Metrics;

/**
 * The metrics that watch the late-booking hold's margin: every booking request's duration however it ended, and a
 * booking found after a try had found the order unbooked with nothing of ours left to carry out.
 */
class BookingMetricsTest {
  private static final String TABLE = "fulfil-order-idempotency";
  private static final Duration HOLD = Duration.ofSeconds(305);
  private static DynamoDbEmulator emulator;
  private static DynamoDbClient dynamoDb;

  private final ModelParts.SettableClock clock = new ModelParts.SettableClock(Instant.parse("2026-11-25T03:00:00Z"));
  private final OrderRecords records =
      new OrderRecords(dynamoDb, TABLE, "fulfil-order", HOLD, Duration.ofDays(21), new ObjectMapper(), clock);
  private final List<String> emitted = new CopyOnWriteArrayList<>();
  private final FulfilmentMetrics metrics = new FulfilmentMetrics((Metrics) Proxy.newProxyInstance(
      Metrics.class.getClassLoader(), new Class<?>[] {Metrics.class}, (proxy, method, args) -> {
        if (method.getName().equals("addMetric")) {
          emitted.add((String) args[0]);
        }
        return null;
      }));
  private final String orderId = "ORD-" + UUID.randomUUID().toString().substring(0, 8);
  private final OrderMessage order = TestOrder.of(orderId);
  private final Shipment booked = new Shipment("SHP-1", orderId, "DPD", "T1", "https://l/1.pdf");

  @BeforeAll
  static void createTable() {
    emulator = DynamoDbEmulator.start();
    dynamoDb = ModelParts.dynamoDb(emulator.endpoint());
    ModelParts.createTable(dynamoDb, TABLE);
  }

  @AfterAll
  static void stop() {
    dynamoDb.close();
    emulator.close();
  }

  /** A partner whose lookup lists what {@code listing} gives and whose booking ends as {@code booking} does. */
  private static PartnerApi partner(Supplier<List<Shipment>> listing, Supplier<Shipment> booking) {
    return new PartnerApi() {
      @Override
      public Shipment book(ShipmentRequest request, String attemptId, Optional<TraceContext> trace, Deadline deadline) {
        return booking.get();
      }

      @Override
      public List<Shipment> lookup(String orderId, String attemptId, Optional<TraceContext> trace, Deadline deadline) {
        return listing.get();
      }
    };
  }

  /** A try with {@code seconds} left and a partner whose worst case is {@code worstCase} seconds. */
  private BookingAttempt attempt(long seconds, long worstCase) {
    return new BookingAttempt(order, UUID.randomUUID().toString(),
        new CallWindow(clock, () -> seconds * 1000, Duration.ZERO, Duration.ofSeconds(worstCase), Duration.ofSeconds(1)),
        Optional.empty(), "message-1");
  }

  @Test
  void aBookingRequestIsTimedHoweverItEnds() {
    OnceOnlyBooking booking = new OnceOnlyBooking(records, partner(List::of, () -> {
      throw new IllegalStateException("connection reset after the request was written");
    }), metrics);

    assertThat(booking.book(attempt(60, 1))).isInstanceOf(BookingResult.Unconfirmed.class);
    assertThat(emitted).containsExactly(MetricNames.PARTNER_LATENCY);
  }

  @Test
  void aBookingFoundAfterATryFoundTheOrderUnbookedWithNothingOfOursOutIsCounted() {
    // The first try finds nothing and sends nothing: too little time left to book.
    assertThat(new OnceOnlyBooking(records, partner(List::of, () -> booked), metrics).book(attempt(10, 20)))
        .isInstanceOf(BookingResult.TryLater.class);
    clock.advance(Duration.ofSeconds(30));

    BookingResult adopted = new OnceOnlyBooking(records, partner(() -> List.of(booked), () -> booked), metrics).book(attempt(60, 1));

    assertThat(((BookingResult.Booked) adopted).booking().source()).isEqualTo(Booking.Source.ADOPTED);
    assertThat(emitted).containsExactly(MetricNames.BOOKING_ADOPTED_AFTER_HOLD);
  }

  @Test
  void aBookingFoundAfterAnUnknownOutcomesHoldIsAnAdoptionLikeAnyOther() {
    OnceOnlyBooking unanswered = new OnceOnlyBooking(records, partner(List::of, () -> {
      throw new IllegalStateException("no answer");
    }), metrics);
    assertThat(unanswered.book(attempt(60, 1))).isInstanceOf(BookingResult.Unconfirmed.class);
    clock.advance(Duration.ofSeconds(60).plus(HOLD).plusSeconds(1));
    emitted.clear();

    new OnceOnlyBooking(records, partner(() -> List.of(booked), () -> booked), metrics).book(attempt(60, 1));

    assertThat(emitted).isEmpty();
  }

  @Test
  void aBookingFoundAfterAFailedLookupIsAnAdoptionLikeAnyOther() {
    assertThat(catchThrowable(() -> new OnceOnlyBooking(records, partner(() -> {
      throw new IllegalStateException("lookup failed");
    }, () -> booked), metrics).book(attempt(60, 1)))).isInstanceOf(IllegalStateException.class);

    new OnceOnlyBooking(records, partner(() -> List.of(booked), () -> booked), metrics).book(attempt(60, 1));

    assertThat(emitted).isEmpty();
  }
}
