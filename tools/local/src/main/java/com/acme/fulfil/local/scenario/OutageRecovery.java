package com.acme.fulfil.local.scenario;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the orders that met the partner's outages came through: an order met one when it was sent before
 * the partner came back and was not booked by then (a booking already under way when the partner went
 * down is answered, and that order never waited). The backlog is booked when the last of them is; of
 * several outages, the slowest to clear is reported.
 */
final class OutageRecovery {
  private OutageRecovery() {}

  /** A bookable order's course: when it was sent, its first booking if any, and its receives. */
  record OrderCourse(Instant sent, Optional<Instant> booked, int receives) {}

  /** Empty when the partner was never down. */
  static Optional<DeploymentReport.Recovery> of(List<PartnerOutages.Downtime> downtimes, List<OrderCourse> orders) {
    if (downtimes.isEmpty()) {
      return Optional.empty();
    }
    List<OrderCourse> met = orders.stream().filter(o -> downtimes.stream().anyMatch(d -> met(o, d))).toList();
    int unbooked = (int) met.stream().filter(o -> o.booked().isEmpty()).count();
    Optional<Duration> slowest = Optional.empty();
    if (unbooked == 0) {
      for (PartnerOutages.Downtime downtime : downtimes) {
        Optional<Duration> cleared = met.stream().filter(o -> met(o, downtime))
            .map(o -> Duration.between(downtime.until(), o.booked().orElseThrow()))
            .max(Duration::compareTo);
        if (cleared.isPresent() && (slowest.isEmpty() || cleared.get().compareTo(slowest.get()) > 0)) {
          slowest = cleared;
        }
      }
    }
    List<Duration> toBooking = new ArrayList<>();
    met.forEach(o -> o.booked().ifPresent(at -> toBooking.add(Duration.between(o.sent(), at))));
    return Optional.of(new DeploymentReport.Recovery(met.size(), unbooked, slowest, DeploymentRun.spread(toBooking),
        DeploymentRun.receives(met.stream().map(OrderCourse::receives).toList())));
  }

  private static boolean met(OrderCourse order, PartnerOutages.Downtime downtime) {
    return order.sent().isBefore(downtime.until()) && order.booked().map(at -> at.isAfter(downtime.until())).orElse(true);
  }
}
