package com.acme.fulfil.sim;

import java.time.Instant;
import java.util.Optional;

/**
 * A request as the partner received it, before deciding anything.
 *
 * @param method {@code POST} (booking) or {@code GET} (lookup), or whatever else a client sent
 * @param orderId the body's {@code order_id} for a POST, the query's for a GET, when readable
 * @param requestId the {@code X-Request-Id} header, when sent
 * @param traceparent the W3C {@code traceparent} header, when sent; the partner's contract neither asks for
 *     it nor forbids it
 */
public record PartnerRequest(String method, Optional<String> orderId, Optional<String> requestId,
    Optional<String> traceparent, Instant receivedAt) {}
