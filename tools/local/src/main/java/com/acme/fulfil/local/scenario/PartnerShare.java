package com.acme.fulfil.local.scenario;

import com.acme.fulfil.sim.PartnerLatency;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How much of an order's send-to-booking the partner spent answering it: the time, between the order's
 * sending and its first booking, in which the partner was waiting out a latency it drew for one of the
 * order's requests. Requests that overlap (the incident's redeliveries, booking the same order at once)
 * count once. It is the model's time, scaled, so it is the same on any machine; the rest of the
 * send-to-booking (waiting for an invocation, waits between tries, the function's own work) is the
 * machine's, and does not shrink with the time scale.
 */
final class PartnerShare {
  private final Map<String, List<PartnerLatency>> byOrder;

  PartnerShare(List<PartnerLatency> latencies) {
    this.byOrder = latencies.stream().collect(Collectors.groupingBy(PartnerLatency::orderId));
  }

  Duration of(String orderId, Instant sent, Instant booked) {
    List<PartnerLatency> waits = byOrder.getOrDefault(orderId, List.of()).stream()
        .sorted(Comparator.comparing(PartnerLatency::began)).toList();
    Duration share = Duration.ZERO;
    Instant counted = sent;
    for (PartnerLatency wait : waits) {
      Instant from = later(wait.began(), counted);
      Instant to = earlier(wait.ended(), booked);
      if (from.isBefore(to)) {
        share = share.plus(Duration.between(from, to));
        counted = to;
      }
    }
    return share;
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private static Instant earlier(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
