package com.acme.fulfil.booking;

import com.acme.fulfil.observability.FulfilmentMetrics;
import com.acme.fulfil.partner.PartnerClient;
import com.acme.fulfil.partner.Shipment;
import com.acme.fulfil.partner.ShipmentRequest;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Books an order with the partner, looking it up first when an earlier try may already have booked:
 * the partner never deduplicates, so the lookup is the only thing between an unknown outcome and a
 * second courier.
 */
public final class PartnerBooking {
  private static final Logger LOG = LoggerFactory.getLogger(PartnerBooking.class);

  private final PartnerClient partner;
  private final FulfilmentMetrics metrics;

  public PartnerBooking(PartnerClient partner, FulfilmentMetrics metrics) {
    this.partner = partner;
    this.metrics = metrics;
  }

  public Booking book(BookingAttempt attempt, boolean earlierTryUnfinished) {
    String orderId = attempt.order().orderId();
    if (earlierTryUnfinished || attempt.redelivered()) {
      List<Shipment> existing = partner.lookup(orderId, attempt.attemptId(), attempt.window().forLookup());
      if (!existing.isEmpty()) {
        if (existing.size() > 1) {
          LOG.warn("order already has {} bookings at the partner; adopting the oldest, cancel the others with the partner",
              existing.size());
        }
        return Booking.of(existing.getFirst(), Booking.Source.ADOPTED, attempt.attemptId());
      }
    }
    var deadline = attempt.window().forBooking();
    long started = System.nanoTime();
    Shipment shipment = partner.book(ShipmentRequest.of(attempt.order()), attempt.attemptId(), deadline);
    metrics.partnerLatency(Duration.ofNanos(System.nanoTime() - started));
    return Booking.of(shipment, Booking.Source.BOOKED, attempt.attemptId());
  }
}
