package com.acme.fulfil.local.scenario;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.acme.fulfil.local.TimeScale;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** The side-by-side report a person reads in ten seconds: one column per configuration. */
public final class ReportText {
  private static final int LABEL = 42;
  private static final int COLUMN = 34;

  private final TimeScale scale;
  private final RetryRows retryRows;

  public ReportText(TimeScale scale) {
    this.scale = scale;
    this.retryRows = new RetryRows(scale);
  }

  public String format(List<DeploymentReport> reports) {
    List<String> lines = new ArrayList<>();
    lines.add(row("", reports, r -> r.configuration() + ": " + r.title()));
    lines.add(row("offered (real orders an hour)", reports, r -> String.format(Locale.ROOT, "%,d", r.offeredOrdersPerHour())));
    lines.add(row("capacity (real orders an hour)", reports, r -> String.format(Locale.ROOT, "%,d (%d at once x %s)",
        r.capacityOrdersPerHour(), r.maxConcurrency(), r.batchSize() == 1 ? "1" : r.batchSize() + " a batch")));
    lines.add(row("orders sent", reports, r -> r.orders() + (r.poisonOrders() > 0 ? " (" + r.poisonOrders() + " never bookable)" : "")));
    lines.add(row("booked exactly once", reports, r -> Integer.toString(r.bookedOnce())));
    lines.add(row("booked twice or more", reports, r -> Integer.toString(r.bookedTwiceOrMore())));
    lines.add(row("  couriers booked in all", reports, r -> Integer.toString(r.bookings())));
    lines.add(row("partner calls: bookings / lookups", reports,
        r -> r.partnerCalls().bookings() + " / " + r.partnerCalls().lookups()));
    lines.add(row("in the DLQ", reports, r -> r.dlq().map(String::valueOf).orElse("- (no DLQ)")));
    Set<String> reasons = new LinkedHashSet<>();
    reports.forEach(r -> reasons.addAll(r.dlqReasons().keySet()));
    for (String reason : reasons) {
      lines.add(row("  " + reason, reports, r -> r.dlq().isEmpty() ? "" : Integer.toString(r.dlqReasons().getOrDefault(reason, 0))));
    }
    lines.add(row("still queued (visible or in flight)", reports, r -> Integer.toString(r.queued())));
    lines.add(row("lost (must be 0)", reports, r -> Integer.toString(r.lost())));
    lines.add(row("receives per good order", reports, r -> receives(r.goodReceives())));
    lines.add(row("receives per never-bookable message", reports, r -> r.poisonOrders() == 0 ? "-" : receives(r.neverBookableReceives())));
    lines.add(row("deletes refused: redelivered meanwhile", reports, r -> Integer.toString(r.staleDeletes())));
    lines.add(row("invocations timed out / failed", reports, r -> r.timedOutInvocations() + " / " + r.failedInvocations()));
    lines.addAll(retryRows.transientFailures(reports));
    lines.addAll(sendToBooking(reports));
    lines.addAll(retryRows.recovery(reports));
    lines.add(row("never-bookable to DLQ p50 / max", reports, r -> r.dlq().isEmpty() ? "never (no DLQ)"
        : r.neverBookableToDlq().map(s -> Durations.local(s.p50()) + " / " + Durations.both(s.max(), scale)).orElse("-")));
    lines.add(row("most waiting (visible)", reports, r -> Integer.toString(r.mostWaiting())));
    lines.add(row("alarms: fired at, OK at", reports, r -> ""));
    AlarmText alarmText = new AlarmText(scale);
    for (String alarm : AlarmNames.ALL) {
      lines.add(row("  " + alarm, reports, r -> alarmText.cell(r.alarm(alarm))));
    }
    lines.add(row("finished", reports, r -> r.settledAfter().map(d -> "all settled at " + Durations.both(d, scale))
        .orElse("deadline, " + r.queued() + " unsettled")));
    lines.add("");
    reports.forEach(r -> lines.add(verdict(r)));
    return String.join(System.lineSeparator(), lines);
  }

  /**
   * The whole in local seconds only: it mixes the partner's scaled latencies with this machine's own work,
   * which keeps its seconds at any scale, so multiplying it by the divisor would call a slower machine a
   * slower partner. The partner's share gets its real-world equivalent; the rest does not.
   */
  private List<String> sendToBooking(List<DeploymentReport> reports) {
    return List.of(
        row("send to booking p50 / p95 / max", reports,
            r -> r.sendToBooking().map(s -> spread(s.all(), Durations::local)).orElse("-")),
        row("  the partner answering p50", reports, r -> r.sendToBooking().map(s -> Durations.both(s.partner().p50(), scale)).orElse("-")),
        row("  the partner answering p95", reports, r -> r.sendToBooking().map(s -> Durations.both(s.partner().p95(), scale)).orElse("-")),
        row("  the partner answering max", reports, r -> r.sendToBooking().map(s -> Durations.both(s.partner().max(), scale)).orElse("-")),
        row("  the rest (local s) p50 / p95 / max", reports,
            r -> r.sendToBooking().map(s -> spread(s.rest(), Durations::precise)).orElse("-")));
  }

  private static String spread(DeploymentReport.Spread spread, Function<Duration, String> format) {
    return format.apply(spread.p50()) + " / " + format.apply(spread.p95()) + " / " + format.apply(spread.max());
  }

  private String verdict(DeploymentReport r) {
    List<String> findings = new ArrayList<>();
    findings.add(r.bookedTwiceOrMore() == 0 ? "no order booked twice"
        : r.bookedTwiceOrMore() + " of " + r.orders() + " orders booked twice or more (" + (r.bookings() - r.bookedOnce() - r.bookedTwiceOrMore())
            + " extra couriers)");
    if (r.poisonOrders() > 0) {
      int goodOrders = r.dlqReasons().getOrDefault(ScenarioOrder.Kind.GOOD.reason(), 0);
      findings.add(r.dlq().isPresent()
          ? (r.dlq().get() - goodOrders) + " of " + r.poisonOrders() + " never-bookable messages in the DLQ"
              + (goodOrders > 0 ? ", and " + goodOrders + " good orders whose receives ran out" : "")
          : r.poisonOrders() + " never-bookable messages recycling (received " + receives(r.neverBookableReceives()) + ")");
    }
    findings.add(r.lost() == 0 ? "nothing lost" : r.lost() + " LOST");
    findings.add(AlarmText.paged(r.alarms()));
    return r.configuration() + ": " + String.join("; ", findings) + ".";
  }

  static String receives(DeploymentReport.Receives receives) {
    return String.format(Locale.ROOT, "mean %.1f, max %d", receives.mean(), receives.max());
  }

  static String row(String label, List<DeploymentReport> reports, Function<DeploymentReport, String> cell) {
    StringBuilder line = new StringBuilder(pad(label, LABEL));
    reports.forEach(r -> line.append(pad(Optional.ofNullable(cell.apply(r)).orElse(""), COLUMN)));
    return line.toString().stripTrailing();
  }

  private static String pad(String text, int width) {
    return text.length() >= width ? text + "  " : text + " ".repeat(width - text.length());
  }
}
