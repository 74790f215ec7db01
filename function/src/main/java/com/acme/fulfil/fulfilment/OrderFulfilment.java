package com.acme.fulfil.fulfilment;

import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.contract.records.OrderLogFields;
import com.acme.fulfil.contract.records.OrderRecordLayout;
import com.acme.fulfil.contract.records.TraceHeaders;
import com.acme.fulfil.booking.Booking;
import com.acme.fulfil.booking.BookingAttempt;
import com.acme.fulfil.booking.BookingResult;
import com.acme.fulfil.booking.CallWindow;
import com.acme.fulfil.booking.Failures;
import com.acme.fulfil.booking.OnceOnlyBooking;
import com.acme.fulfil.observability.FulfilmentMetrics;
import com.acme.fulfil.trace.TraceContext;
import com.acme.fulfil.order.InvalidOrder;
import com.acme.fulfil.order.OrderMessage;
import com.acme.fulfil.order.OrderParser;
import com.acme.fulfil.order.ValidOrder;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * One SQS record from body to outcome: parse, book once, classify what went wrong. It never throws:
 * one bad record must not fail the batch it came in.
 */
public final class OrderFulfilment {
  private static final Logger LOG = LoggerFactory.getLogger(OrderFulfilment.class);

  private final OrderParser parser;
  private final OnceOnlyBooking booking;
  private final FulfilmentMetrics metrics;
  private final int maxReceiveCount;

  public OrderFulfilment(OrderParser parser, OnceOnlyBooking booking, FulfilmentMetrics metrics, int maxReceiveCount) {
    this.parser = parser;
    this.booking = booking;
    this.metrics = metrics;
    this.maxReceiveCount = maxReceiveCount;
  }

  /** Runs on the record's own thread: the log keys it sets label only this record's lines. */
  public RecordOutcome fulfil(ReceivedMessage message, CallWindow window) {
    int receives = message.receiveCount();
    MDC.put(OrderLogFields.MESSAGE_ID, message.messageId());
    MDC.put(OrderLogFields.RECEIVE_COUNT, Integer.toString(receives));
    Optional<TraceContext> trace = traceOf(message);
    if (receives >= maxReceiveCount - 1) {
      metrics.count(MetricNames.NEAR_DLQ);
      LOG.warn("receive {} of {}: if this try fails the redrive policy moves the message to the DLQ", receives, maxReceiveCount);
    }
    RecordOutcome outcome = switch (parser.parse(message.body())) {
      case InvalidOrder invalid -> {
        if (invalid.orderId() != null) {
          MDC.put(OrderLogFields.ORDER_ID, invalid.orderId());
        }
        yield RecordOutcome.Rejected.invalid(invalid);
      }
      case ValidOrder valid -> {
        MDC.put(OrderLogFields.ORDER_ID, valid.order().orderId());
        yield book(valid.order(), window, trace, message.messageId());
      }
    };
    report(outcome);
    return outcome;
  }

  /**
   * The producer's {@code traceparent} attribute, else the X-Ray header SQS keeps; its trace id labels the record's
   * lines. A missing or unreadable one is counted and ignored: tracing never holds up an order.
   */
  private Optional<TraceContext> traceOf(ReceivedMessage message) {
    if (message.traceparent().isEmpty() && message.awsTraceHeader().isEmpty()) {
      metrics.count(MetricNames.TRACE_CONTEXT_MISSING);
      return Optional.empty();
    }
    Optional<TraceContext> trace = TraceContext.fromMessage(message.traceparent(), message.awsTraceHeader().orElse(null));
    trace.ifPresentOrElse(found -> MDC.put(OrderLogFields.TRACE_ID, found.traceId()), () -> {
      metrics.count(MetricNames.TRACE_CONTEXT_MALFORMED);
      // The value itself stays out of the line: it is the producer's to check, and could be anything.
      LOG.info("the message's {} is not a valid trace context; the order goes ahead untraced",
          message.traceparent().isPresent() ? TraceHeaders.TRACEPARENT : MessageSystemAttributeName.AWS_TRACE_HEADER);
    });
    return trace;
  }

  private RecordOutcome book(OrderMessage order, CallWindow window, Optional<TraceContext> trace, String messageId) {
    String attemptId = UUID.randomUUID().toString();
    try {
      return switch (booking.book(new BookingAttempt(order, attemptId, window, trace, messageId))) {
        case BookingResult.Booked(Booking booked) when !booked.madeBy(attemptId) -> new RecordOutcome.AlreadyBooked(booked);
        case BookingResult.Booked(Booking booked) -> booked.source() == Booking.Source.ADOPTED
            ? new RecordOutcome.Adopted(booked) : new RecordOutcome.Booked(booked);
        case BookingResult.HeldElsewhere(Optional<Instant> until) ->
            new RecordOutcome.InProgressElsewhere(until.<NextTry>map(NextTry.AfterLock::new).orElseGet(NextTry.QueueTimeout::new));
        case BookingResult.Rejected(String reason) ->
            new RecordOutcome.Rejected(OrderRecordLayout.PARTNER_REJECTED, reason, order.orderId());
        // The partner may still book: the order stays locked, and so must the message.
        case BookingResult.Unconfirmed(Instant heldUntil, String reason) ->
            new RecordOutcome.Retry(reason, new NextTry.AfterLock(heldUntil));
        // Nothing of this try's can still book: a backoff returns no message to a try that may book.
        case BookingResult.TryLater(String reason, Optional<Duration> partnerAsked) -> new RecordOutcome.Retry(reason,
            partnerAsked.<NextTry>map(NextTry.PartnerAsked::new).orElseGet(NextTry.Backoff::new));
      };
    } catch (RuntimeException e) {
      // Our own bug, most likely: keep the order (it reaches the DLQ if it never succeeds) and the trace, and
      // the queue's whole timeout, since nothing says what the try did.
      LOG.error("unexpected failure booking the order", e);
      return new RecordOutcome.Retry("unexpected " + Failures.describe(e), new NextTry.QueueTimeout());
    }
  }

  private void report(RecordOutcome outcome) {
    metrics.count(switch (outcome) {
      case RecordOutcome.Booked b -> MetricNames.ORDER_BOOKED;
      case RecordOutcome.Adopted a -> MetricNames.BOOKING_ADOPTED;
      case RecordOutcome.AlreadyBooked d -> MetricNames.DUPLICATE_SUPPRESSED;
      case RecordOutcome.Rejected r -> MetricNames.PERMANENT_FAILURE;
      case RecordOutcome.Retry r -> MetricNames.TRANSIENT_FAILURE;
      case RecordOutcome.InProgressElsewhere p -> MetricNames.IN_PROGRESS_ELSEWHERE;
    });
    switch (outcome) {
      case RecordOutcome.Booked(Booking b) -> LOG.info("booked shipment {} ({})", b.shipmentId(), b.courier());
      case RecordOutcome.Adopted(Booking b) ->
          LOG.info("adopted shipment {} booked by an earlier, unfinished try", b.shipmentId());
      case RecordOutcome.AlreadyBooked(Booking b) -> LOG.info(
          "duplicate delivery: order already booked as shipment {}, nothing sent to the partner", b.shipmentId());
      case RecordOutcome.Rejected r ->
          LOG.error("permanent failure, returning the message for the DLQ: {}", r.reason());
      case RecordOutcome.Retry r ->
          LOG.warn("transient failure, the message returns {}: {}", when(r.next()), r.reason());
      case RecordOutcome.InProgressElsewhere p ->
          LOG.info("another invocation is booking this order now; the message returns {}", when(p.next()));
    }
  }

  private static String when(NextTry next) {
    return switch (next) {
      case NextTry.Backoff b -> "after a backoff";
      case NextTry.PartnerAsked asked -> "after the partner's Retry-After of " + asked.retryAfter().toSeconds() + " s";
      case NextTry.AfterLock lock -> "after the order's lock ends at " + lock.lockEnd();
      case NextTry.QueueTimeout q -> "after the visibility timeout";
    };
  }
}
