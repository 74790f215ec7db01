package com.acme.fulfil.booking;

import com.acme.fulfil.observability.TraceContext;
import com.acme.fulfil.order.OrderMessage;
import java.util.Optional;

/**
 * One try at booking an order, from one delivery of one message.
 *
 * @param attemptId unique per try; sent to the partner as {@code X-Request-Id}
 * @param trace the trace the message came in, if it carried a valid one: the partner's requests join it
 */
public record BookingAttempt(OrderMessage order, String attemptId, CallWindow window, Optional<TraceContext> trace) {}
