package com.acme.fulfil.booking;

import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.contract.records.OrderRecordLayout;
import com.acme.fulfil.observability.FulfilmentMetrics;
import com.acme.fulfil.partner.Deadline;
import com.acme.fulfil.partner.PartnerApi;
import com.acme.fulfil.partner.NotBooked;
import com.acme.fulfil.partner.PartnerException;
import com.acme.fulfil.partner.PartnerRejectedException;
import com.acme.fulfil.partner.Shipment;
import com.acme.fulfil.partner.ShipmentRequest;
import com.acme.fulfil.partner.UnreadableBookingException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Books an order's courier at most once, however many tries its messages make: a try claims the order's record,
 * looks the order up at the partner, writes down that its booking request is leaving, and records the booking or why
 * it failed. Everything a try knows travels in its arguments and its claim, nothing per thread or per JVM.
 *
 * <p>The lookup comes before every booking request, a first try's too: the partner never deduplicates, and only its
 * lookup can prove the order has no booking yet. Our record cannot: it expires, a restore or a person can undo it,
 * and a redriven or resent message arrives with a receive count of 1 long after.
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
   * @throws RejectedBeforeException the partner rejected the order as this message carries it, on an earlier receive
   * @throws BookingUnconfirmedException this try's booking request may have been carried out
   */
  public Booking book(BookingAttempt attempt) {
    return switch (records.claim(attempt.order().orderId(), attempt.attemptId(), attempt.window())) {
      case OrderRecords.AlreadyBooked booked -> booked.booking();
      case OrderRecords.HeldElsewhere held -> throw new OrderHeldElsewhereException(held.until());
      case OrderRecords.Claim claim -> bookHolding(claim, attempt);
    };
  }

  private Booking bookHolding(OrderRecords.Claim claim, BookingAttempt attempt) {
    Optional<OrderRecords.Rejection> rejected =
        claim.found().rejected().filter(rejection -> rejection.messageId().equals(attempt.messageId()));
    if (rejected.isPresent()) {
      // The same message, the same request: the partner's verdict on it stands, and asking again costs two calls.
      RejectedBeforeException again = new RejectedBeforeException(rejected.get().reason());
      endClaim(again, () -> records.release(claim, OrderRecordLayout.PARTNER_REJECTED, again.getMessage()));
      throw again;
    }
    OrderRecords.BookingRequestOut request;
    Deadline deadline;
    boolean foundUnbooked = false;
    try {
      List<Shipment> existing = partner.lookup(attempt.order().orderId(), attempt.attemptId(), attempt.trace(),
          attempt.window().forLookup());
      if (!existing.isEmpty()) {
        Booking adopted = adopt(existing, claim, attempt);
        records.complete(claim, adopted);
        return adopted;
      }
      foundUnbooked = true;
      deadline = attempt.window().forBooking();
      request = records.beforeBookingRequest(claim).orElseThrow(() -> new OrderHeldElsewhereException(null));
    } catch (RuntimeException nothingSent) {
      // No booking request has left under this claim: the order is free again at once.
      boolean unbooked = foundUnbooked;
      endClaim(nothingSent, () -> {
        if (unbooked) {
          records.releaseUnbooked(claim, outcomeName(nothingSent), Failures.describe(nothingSent));
        } else {
          records.release(claim, outcomeName(nothingSent), Failures.describe(nothingSent));
        }
      });
      throw nothingSent;
    }
    Booking booking = send(request, deadline, attempt);
    // Not released if this write fails: the claim's lock then keeps the booked order from a second booking.
    records.complete(claim, booking);
    return booking;
  }

  /**
   * The oldest of the order's bookings. One found after an earlier try had found the order unbooked with nothing of
   * ours left to carry out can only have come from a booking request whose hold had ended: the partner booked later
   * than its contract allows (or an answer that proved nothing booked was wrong), and a second booking may follow.
   */
  private Booking adopt(List<Shipment> existing, OrderRecords.Claim claim, BookingAttempt attempt) {
    claim.found().nothingBookedAt().ifPresent(at -> {
      metrics.count(MetricNames.BOOKING_ADOPTED_AFTER_HOLD);
      LOG.error("the partner lists a booking of this order although a try at {} found none with nothing of ours left to"
          + " book: the partner booked after the late-booking hold ended, later than its contract allows", at);
    });
    if (existing.size() > 1) {
      LOG.warn("order already has {} bookings at the partner; adopting the oldest, cancel the others with the partner",
          existing.size());
    }
    return Booking.of(existing.getFirst(), Booking.Source.ADOPTED, attempt.attemptId());
  }

  /**
   * Sends the booking request. From here the order is held by default: only the partner's {@link NotBooked} proof
   * frees it; every other ending, whatever its type, holds it until the partner can no longer be booking.
   */
  private Booking send(OrderRecords.BookingRequestOut request, Deadline deadline, BookingAttempt attempt) {
    long started = System.nanoTime();
    Shipment shipment;
    try {
      try {
        shipment = partner.book(ShipmentRequest.of(attempt.order()), attempt.attemptId(), attempt.trace(), deadline);
      } finally {
        // However it ended: a partner drifting towards the contract's maximum shows in its unanswered calls first.
        metrics.partnerLatency(Duration.ofNanos(System.nanoTime() - started));
      }
    } catch (RuntimeException ending) {
      Optional<NotBooked> proof = ending instanceof PartnerException answer ? answer.notBooked() : Optional.empty();
      if (proof.isPresent()) {
        endClaim(ending, () -> records.release(request, proof.get(), outcomeName(ending), Failures.describe(ending)));
        throw ending;
      }
      Instant heldUntil;
      try {
        heldUntil = records.hold(request, OrderRecordLayout.OUTCOME_UNKNOWN, Failures.describe(ending));
      } catch (RuntimeException holdFailed) {
        // The claim's own lock then stands, and it ends later still.
        ending.addSuppressed(holdFailed);
        heldUntil = request.claim().lockEnd();
      }
      throw new BookingUnconfirmedException(heldUntil, ending);
    }
    return Booking.of(shipment, Booking.Source.BOOKED, attempt.attemptId());
  }

  /** If ending the claim fails, it lasts until its lock expires; the try's own failure is still the one reported. */
  private static void endClaim(RuntimeException failure, Runnable end) {
    try {
      end.run();
    } catch (RuntimeException endFailed) {
      failure.addSuppressed(endFailed);
    }
  }

  private static String outcomeName(RuntimeException failure) {
    return switch (failure) {
      case PartnerRejectedException r -> OrderRecordLayout.PARTNER_REJECTED;
      case UnreadableBookingException u -> OrderRecordLayout.BOOKING_UNREADABLE;
      case NoTimeToBookException n -> OrderRecordLayout.NO_TIME_TO_BOOK;
      case OrderHeldElsewhereException h -> OrderRecordLayout.LOST_THE_CLAIM;
      default -> OrderRecordLayout.FAILED;
    };
  }
}
