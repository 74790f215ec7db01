package com.acme.fulfil.booking;

import com.acme.fulfil.trace.TraceContext;
import com.acme.fulfil.order.OrderMessage;
import java.util.Optional;

/**
 * One try at booking an order, from one delivery of one message.
 *
 * @param attemptId unique per try; the partner sees it at the start of each of the try's {@code X-Request-Id}s
 * @param trace the trace the message came in, if it carried a valid one: the partner's requests join it
 * @param messageId the SQS message id of the delivery
 */
public record BookingAttempt(OrderMessage order, String attemptId, CallWindow window, Optional<TraceContext> trace,
    String messageId) {}
