package com.acme.fulfil.booking;

import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.contract.records.OrderRecordLayout;
import com.acme.fulfil.observability.FulfilmentMetrics;
import com.acme.fulfil.partner.Deadline;
import com.acme.fulfil.partner.PartnerApi;
import com.acme.fulfil.partner.NotBooked;
import com.acme.fulfil.partner.PartnerException;
import com.acme.fulfil.partner.PartnerRejectedException;
import com.acme.fulfil.partner.PartnerUnavailableException;
import com.acme.fulfil.partner.Shipment;
import com.acme.fulfil.partner.ShipmentRequest;
import com.acme.fulfil.partner.UnreadableBookingException;
import com.acme.fulfil.secrets.SecretUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;

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

  /** What this try came to; it throws only what none of the results covers: our own bugs. */
  public BookingResult book(BookingAttempt attempt) {
    OrderRecords.ClaimResult claimed;
    try {
      claimed = records.claim(attempt.order().orderId(), attempt.attemptId(), attempt.window());
    } catch (SdkException unanswered) {
      // Nothing was sent; a claim DynamoDB may have applied was freed if it could be (OrderRecords.claim).
      return tryLater(unanswered);
    }
    return switch (claimed) {
      case OrderRecords.AlreadyBooked booked -> new BookingResult.Booked(booked.booking());
      case OrderRecords.HeldElsewhere held -> new BookingResult.HeldElsewhere(Optional.of(held.until()));
      case OrderRecords.Claim claim -> bookHolding(claim, attempt);
    };
  }

  private BookingResult bookHolding(OrderRecords.Claim claim, BookingAttempt attempt) {
    Optional<OrderRecords.Rejection> rejected =
        claim.found().rejected().filter(rejection -> rejection.messageId().equals(attempt.messageId()));
    if (rejected.isPresent()) {
      // The same message, the same request: the partner's verdict on it stands, and asking again costs two calls.
      String reason = rejected.get().reason();
      endClaim(() -> records.release(claim, OrderRecordLayout.PARTNER_REJECTED, reason));
      return new BookingResult.Rejected(reason);
    }
    // No booking request has left under this claim until it is sent: any ending before frees the order at once.
    OrderRecords.BookingRequestOut request;
    Deadline deadline;
    boolean foundUnbooked = false;
    try {
      CallWindow.CallTime lookupTime = attempt.window().forLookup();
      if (!(lookupTime instanceof CallWindow.Until lookup)) {
        return noTime(claim, false, lookupTime);
      }
      List<Shipment> existing;
      try {
        existing = partner.lookup(attempt.order().orderId(), attempt.attemptId(), attempt.trace(), lookup.deadline());
      } catch (PartnerException | SecretUnavailableException e) {
        return freed(claim, false, outcomeName(e), Failures.describe(e), answered(e));
      }
      if (!existing.isEmpty()) {
        Booking adopted = adopt(existing, claim, attempt);
        records.complete(claim, adopted);
        return new BookingResult.Booked(adopted);
      }
      foundUnbooked = true;
      CallWindow.CallTime bookingTime = attempt.window().forBooking();
      if (!(bookingTime instanceof CallWindow.Until booking)) {
        return noTime(claim, true, bookingTime);
      }
      deadline = booking.deadline();
      Optional<OrderRecords.BookingRequestOut> out = records.beforeBookingRequest(claim);
      if (out.isEmpty()) {
        return freed(claim, true, OrderRecordLayout.LOST_THE_CLAIM,
            "another try took the order over before this one could send its booking request",
            new BookingResult.HeldElsewhere(Optional.empty()));
      }
      request = out.get();
    } catch (SdkException e) {
      return freed(claim, foundUnbooked, OrderRecordLayout.FAILED, Failures.describe(e), tryLater(e));
    } catch (RuntimeException unexpected) {
      boolean unbooked = foundUnbooked;
      endClaim(() -> release(claim, unbooked, OrderRecordLayout.FAILED, Failures.describe(unexpected)));
      throw unexpected;
    }
    BookingResult sent = send(request, deadline, attempt);
    if (sent instanceof BookingResult.Booked booked) {
      try {
        records.complete(claim, booked.booking());
      } catch (SdkException e) {
        // Not released: the claim's lock then keeps the booked order from a second booking.
        return tryLater(e);
      }
    }
    return sent;
  }

  private BookingResult noTime(OrderRecords.Claim claim, boolean foundUnbooked, CallWindow.CallTime time) {
    String reason = OrderRecordLayout.NO_TIME_TO_BOOK + ": " + ((CallWindow.NoTime) time).reason();
    return freed(claim, foundUnbooked, OrderRecordLayout.NO_TIME_TO_BOOK, reason,
        new BookingResult.TryLater(reason, Optional.empty()));
  }

  /** The claim ended with nothing of this try's out: the order is free again at once. */
  private BookingResult freed(OrderRecords.Claim claim, boolean foundUnbooked, String outcome, String reason,
      BookingResult result) {
    endClaim(() -> release(claim, foundUnbooked, outcome, reason));
    return result;
  }

  private void release(OrderRecords.Claim claim, boolean foundUnbooked, String outcome, String reason) {
    if (foundUnbooked) {
      records.releaseUnbooked(claim, outcome, reason);
    } else {
      records.release(claim, outcome, reason);
    }
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
  private BookingResult send(OrderRecords.BookingRequestOut request, Deadline deadline, BookingAttempt attempt) {
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
        endClaim(() -> records.release(request, proof.get(), outcomeName(ending), Failures.describe(ending)));
        return answered(ending);
      }
      Instant heldUntil;
      try {
        heldUntil = records.hold(request, OrderRecordLayout.OUTCOME_UNKNOWN, Failures.describe(ending));
      } catch (RuntimeException holdFailed) {
        // The claim's own lock then stands, and it ends later still.
        ending.addSuppressed(holdFailed);
        heldUntil = request.claim().lockEnd();
      }
      if (!(ending instanceof PartnerException)) {
        LOG.error("unexpected failure after the booking request may have left; the order is held until {}", heldUntil,
            ending);
      }
      return new BookingResult.Unconfirmed(heldUntil, Failures.describe(ending));
    }
    return new BookingResult.Booked(Booking.of(shipment, Booking.Source.BOOKED, attempt.attemptId()));
  }

  /**
   * What a partner's answer that leaves nothing of this try's out comes to: its verdict on the order, or another try
   * later, when it asked for one.
   */
  private static BookingResult answered(RuntimeException answer) {
    return switch (answer) {
      case PartnerRejectedException verdict -> new BookingResult.Rejected(verdict.getMessage());
      case PartnerUnavailableException unavailable ->
          new BookingResult.TryLater(Failures.describe(unavailable), unavailable.retryAfter());
      default -> tryLater(answer);
    };
  }

  private static BookingResult.TryLater tryLater(RuntimeException failure) {
    return new BookingResult.TryLater(Failures.describe(failure), Optional.empty());
  }

  /** If ending the claim fails, it lasts until its lock expires; the try's own ending is still the one reported. */
  private static void endClaim(Runnable end) {
    try {
      end.run();
    } catch (RuntimeException endFailed) {
      LOG.warn("could not free the order ({}); it stays held until this try's claim runs out", Failures.describe(endFailed));
    }
  }

  private static String outcomeName(RuntimeException failure) {
    return switch (failure) {
      case PartnerRejectedException r -> OrderRecordLayout.PARTNER_REJECTED;
      case UnreadableBookingException u -> OrderRecordLayout.BOOKING_UNREADABLE;
      default -> OrderRecordLayout.FAILED;
    };
  }
}
