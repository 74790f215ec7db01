package com.acme.fulfil.booking;

import com.acme.fulfil.order.OrderMessage;

/**
 * One try at booking an order, from one delivery of one message.
 *
 * @param attemptId unique per try; sent to the partner as {@code X-Request-Id}
 */
public record BookingAttempt(OrderMessage order, String attemptId, CallWindow window) {}
