package com.acme.fulfil.booking;

import com.acme.fulfil.observability.FulfilmentMetrics;
import com.acme.fulfil.partner.PartnerApi;
import com.acme.fulfil.partner.PartnerOutcomeUnknownException;
import com.acme.fulfil.partner.PartnerRejectedException;
import com.acme.fulfil.partner.Shipment;
import com.acme.fulfil.partner.ShipmentRequest;
import com.acme.fulfil.partner.UnreadableBookingException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Books an order's courier at most once, however many tries its messages make: a try first claims
 * the order's record, looks the order up at the partner, writes down that its booking request is
 * leaving, and records the booking or why it failed. Everything a try knows travels in its arguments
 * and its claim: nothing is kept per thread or per JVM.
 *
 * <p>The lookup comes before every booking request, a first try's too. The partner never
 * deduplicates and its lookup is the ledger of every booking ever made for the order; our record is
 * not: it expires, a restore brings back an older one, a person can delete it, and a redriven or
 * resent message arrives with a receive count of 1 long after. Only the partner can prove the order
 * has no booking yet.
 */
public final class OnceOnlyBooking {
  private static final Logger LOG = LoggerFactory.getLogger(OnceOnlyBooking.class);

  private final OrderRecords records;
  private final PartnerApi partner;
  private final FulfilmentMetrics metrics;

  public OnceOnlyBooking(OrderRecords records, PartnerApi partner, FulfilmentMetrics metrics) {
    this.records = records;
    this.partner = partner;
    this.metrics = metrics;
  }

  /**
   * The order's booking: this try's, or the one an earlier try made ({@link Booking#madeBy} tells).
   *
   * @throws OrderHeldElsewhereException another try holds the order now
   */
  public Booking book(BookingAttempt attempt) {
    return switch (records.claim(attempt.order().orderId(), attempt.attemptId(), attempt.window())) {
      case OrderRecords.AlreadyBooked booked -> booked.booking();
      case OrderRecords.HeldElsewhere held -> throw new OrderHeldElsewhereException(held.until());
      case OrderRecords.Claim claim -> bookHolding(claim, attempt);
    };
  }

  /**
   * Until when the order stays locked after {@code unanswered}: its message must not come back before,
   * since only then can no booking of that request still appear.
   */
  public Instant lockedUntil(PartnerOutcomeUnknownException unanswered) {
    return records.lockEndAfterUnansweredRequest(unanswered.receivableUntil());
  }

  private Booking bookHolding(OrderRecords.Claim claim, BookingAttempt attempt) {
    Booking booking;
    try {
      booking = lookUpOrBook(claim, attempt);
    } catch (RuntimeException e) {
      release(claim, e);
      throw e;
    }
    records.complete(claim, booking);
    return booking;
  }

  private Booking lookUpOrBook(OrderRecords.Claim claim, BookingAttempt attempt) {
    String orderId = attempt.order().orderId();
    List<Shipment> existing = partner.lookup(orderId, attempt.attemptId(), attempt.trace(), attempt.window().forLookup());
    if (!existing.isEmpty()) {
      if (existing.size() > 1) {
        LOG.warn("order already has {} bookings at the partner; adopting the oldest, cancel the others with the partner",
            existing.size());
      }
      return Booking.of(existing.getFirst(), Booking.Source.ADOPTED, attempt.attemptId());
    }
    var deadline = attempt.window().forBooking();
    if (!records.beforeBookingRequest(claim)) {
      throw new OrderHeldElsewhereException(null);
    }
    long started = System.nanoTime();
    Shipment shipment = partner.book(ShipmentRequest.of(attempt.order()), attempt.attemptId(), attempt.trace(), deadline);
    metrics.partnerLatency(Duration.ofNanos(System.nanoTime() - started));
    return Booking.of(shipment, Booking.Source.BOOKED, attempt.attemptId());
  }

  private void release(OrderRecords.Claim claim, RuntimeException failure) {
    try {
      records.release(claim, outcomeName(failure), Failures.describe(failure),
          failure instanceof PartnerOutcomeUnknownException unknown ? unknown.receivableUntil() : null);
    } catch (RuntimeException releaseFailed) {
      // The claim then simply lasts until its lock expires; the try's own failure is the one to report.
      failure.addSuppressed(releaseFailed);
    }
  }

  private static String outcomeName(RuntimeException failure) {
    return switch (failure) {
      case PartnerRejectedException r -> "partner_rejected";
      case PartnerOutcomeUnknownException u -> "outcome_unknown";
      case UnreadableBookingException u -> "booking_unreadable";
      case NoTimeToBookException n -> "no_time_to_book";
      case OrderHeldElsewhereException h -> "lost_the_claim";
      default -> "failed";
    };
  }
}
