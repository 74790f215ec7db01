package com.acme.fulfil.local.scenario;

import com.acme.fulfil.local.TimeScale;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** The text report's rows on failed tries and on the orders that met the partner's outages. */
final class RetryRows {
  private final TimeScale scale;

  RetryRows(TimeScale scale) {
    this.scale = scale;
  }

  /** A row per cause any configuration's function logged, under their total. */
  List<String> transientFailures(List<DeploymentReport> reports) {
    Set<FailureCause> seen = EnumSet.noneOf(FailureCause.class);
    reports.forEach(r -> r.transientFailures().ifPresent(byCause -> seen.addAll(byCause.keySet())));
    List<String> rows = new ArrayList<>();
    rows.add(ReportText.row("failed tries, by cause (function log)", reports, r -> r.transientFailures()
        .map(byCause -> Integer.toString(byCause.values().stream().mapToInt(Integer::intValue).sum()))
        .orElse("- (not logged)")));
    for (FailureCause cause : seen) {
      rows.add(ReportText.row("  " + cause.label(), reports,
          r -> r.transientFailures().map(byCause -> Integer.toString(byCause.getOrDefault(cause, 0))).orElse("")));
    }
    return rows;
  }

  /** Nothing on a day without outages. */
  List<String> recovery(List<DeploymentReport> reports) {
    if (reports.stream().allMatch(r -> r.recovery().isEmpty())) {
      return List.of();
    }
    return List.of(
        ReportText.row("orders that met the outage", reports, r -> r.recovery()
            .map(m -> m.orders() + (m.unbooked() > 0 ? " (" + m.unbooked() + " not booked yet)" : "")).orElse("-")),
        ReportText.row("  partner back to backlog booked", reports, r -> r.recovery()
            .flatMap(DeploymentReport.Recovery::backlogBookedAfter).map(d -> Durations.both(d, scale)).orElse("-")),
        ReportText.row("  send to booking p50", reports, r -> r.recovery()
            .flatMap(DeploymentReport.Recovery::sendToBooking).map(s -> Durations.both(s.p50(), scale)).orElse("-")),
        ReportText.row("  send to booking p95", reports, r -> r.recovery()
            .flatMap(DeploymentReport.Recovery::sendToBooking).map(s -> Durations.both(s.p95(), scale)).orElse("-")),
        ReportText.row("  receives per order", reports, r -> r.recovery()
            .map(m -> ReportText.receives(m.receives())).orElse("-")));
  }
}
