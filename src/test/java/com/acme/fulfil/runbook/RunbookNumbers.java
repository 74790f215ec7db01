package com.acme.fulfil.runbook;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.acme.fulfil.contract.alarms.AlarmRule;
import com.acme.fulfil.contract.alarms.AlarmRules;
import com.acme.fulfil.contract.sqs.SqsLimits;
import com.acme.fulfil.contract.timing.Capacity;
import com.acme.fulfil.contract.timing.RetrySchedule;
import com.acme.fulfil.contract.timing.TimingBudget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The runbook's table of numbers ("The numbers"), made from the code: the timing budget and capacity
 * of the committed settings, and the stack's alarm rules. The runbook's prose names these numbers
 * without typing them; {@link RunbookAgreesWithTheCodeTest} holds the table to this text.
 */
final class RunbookNumbers {
  /**
   * AWS's, not ours, so no code holds it: Lambda removes a published version's SnapStart snapshot once
   * the version has not been invoked for this long (the runbook's rollback says why it matters).
   */
  static final Duration SNAPSTART_SNAPSHOT_KEPT_UNINVOKED = Duration.ofDays(14);

  private RunbookNumbers() {}

  /** The table's lines, header and rule included, for the deployed budget and mapping concurrency. */
  static List<String> table(TimingBudget budget, int maxConcurrency) {
    Capacity capacity = budget.capacity(maxConcurrency);
    RetrySchedule retries = budget.retrySchedule();
    Map<String, AlarmRule> alarms = AlarmRules.of(budget, capacity).stream()
        .collect(Collectors.toMap(AlarmRule::name, Function.identity()));
    List<String> rows = new ArrayList<>(List.of("| what | value |", "|---|---|"));
    rows.add(row("receives before the DLQ", "%d", budget.maxReceiveCount()));
    rows.add(row("a try (the function's timeout)", seconds(budget.functionTimeout())));
    rows.add(row("visibility timeout: the wait after a killed try, an unknown failure",
        seconds(budget.visibilityTimeout())));
    rows.add(row("a failed try's backoff", "%s, doubling each receive, at most %s, less up to %d%% at random",
        seconds(retries.firstBackoff()), seconds(retries.longestBackoff()), retries.jitterPercent()));
    rows.add(row("an unanswered booking holds its order", "%s after the try stopped waiting", seconds(budget.lateBookingHold())));
    rows.add(row("an order retries before the DLQ", "at least %s, at most %s",
        secondsAndHours(retries.shortestRetrying(budget.maxReceiveCount())), secondsAndHours(budget.longestRetryLife())));
    rows.add(row("a message stays in flight through an outage", "%s on average", secondsAndHours(budget.outageRetryLife())));
    rows.add(row("`orders-to-fulfil` keeps an order", "%d days after it was sent", budget.sourceRetention().toDays()));
    rows.add(row("the DLQ keeps an order", "%d days after it was sent, not after it got there; one the function sent there itself, %d days after that send",
        budget.dlqRetention().toDays(), budget.dlqRetention().toDays()));
    rows.add(row("the table remembers a booking", "%d days", budget.idempotencyTtl().toDays()));
    rows.add(row("the mapping's concurrency (`maxConcurrency`)", "%d", maxConcurrency));
    rows.add(row("the function's reserved concurrency: the mapping's, and room for a test invoke", "%d",
        capacity.reservedConcurrency()));
    rows.add(row("the stack books, an hour", "%,d at the partner's usual %d s, %,d at its worst case",
        capacity.typicalOrdersPerHour(), capacity.typicalRound().toSeconds(), capacity.worstCaseOrdersPerHour()));

    AlarmRule oldest = alarms.remove(AlarmNames.OLDEST_MESSAGE_TOO_OLD);
    rows.add(row(fires(oldest, "above"), seconds(Duration.ofSeconds((long) oldest.threshold()))));
    AlarmRule backlog = alarms.remove(AlarmNames.BACKLOG);
    rows.add(row(fires(backlog, "above"), "%,d waiting for %s (what the stack books in %s)", (long) backlog.threshold(),
        seconds(backlog.period()), seconds(Capacity.BACKLOG_WINDOW)));
    AlarmRule inFlight = alarms.remove(AlarmNames.IN_FLIGHT_NEAR_CAP);
    rows.add(row(fires(inFlight, "above"), "%,d (SQS stops handing out messages at about %,d)", (long) inFlight.threshold(),
        SqsLimits.IN_FLIGHT_CAP));
    AlarmRule arrivals = alarms.remove(AlarmNames.DLQ_NEW_MESSAGES);
    rows.add(row(fires(arrivals, "on"), "an arrival in a period of %s; OK after %d periods without one",
        seconds(arrivals.period()), arrivals.evaluationPeriods()));
    AlarmRule stalled = alarms.remove(AlarmNames.STALLED);
    rows.add(row(fires(stalled, "on"), "%d periods of %s in a row with orders waiting and none received or deleted",
        stalled.datapointsToAlarm(), seconds(stalled.period())));
    AlarmRule partner = alarms.remove(AlarmNames.PARTNER_FAILING);
    rows.add(row(fires(partner, "on"), "%d bad periods of %s out of %d", partner.datapointsToAlarm(),
        seconds(partner.period()), partner.evaluationPeriods()));
    // The rest share one rule: a single period above zero. A rule that does not is a row of its own.
    for (AlarmRule other : alarms.values()) {
      if (other.threshold() != 0 || !other.period().equals(TimingBudget.ALARM_PERIOD) || other.evaluationPeriods() != 1) {
        throw new AssertionError(other.name() + " needs a row of its own in the runbook's numbers: " + other);
      }
    }
    rows.add(row("every other alarm fires above", "0 in a period of %s", seconds(TimingBudget.ALARM_PERIOD)));
    rows.add(row("Lambda removes the SnapStart snapshot of a version not invoked for", "%d days (AWS's figure)",
        SNAPSTART_SNAPSHOT_KEPT_UNINVOKED.toDays()));
    return rows;
  }

  private static String fires(AlarmRule rule, String how) {
    return "`" + rule.name() + "` fires " + how;
  }

  private static String row(String what, String format, Object... values) {
    return "| " + what + " | " + String.format(Locale.ROOT, format, values) + " |";
  }

  private static String row(String what, String value) {
    return "| " + what + " | " + value + " |";
  }

  static String seconds(Duration duration) {
    return String.format(Locale.ROOT, "%,d s", duration.toSeconds());
  }

  private static String secondsAndHours(Duration duration) {
    return String.format(Locale.ROOT, "%,d s (%.1f h)", duration.toSeconds(), duration.toSeconds() / 3600.0);
  }
}
