package com.acme.fulfil.contract.alarms;

import com.acme.fulfil.contract.oncall.RunbookSections;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * What on-call reads when an alarm pages: what it means, the first command to run and the runbook section
 * to open, by the section's title. One source for docs/runbook.md's opening table, which
 * RunbookAgreesWithTheCodeTest holds to it, and for the pages {@code ./run-local --serve} prints. A first
 * command is written as the table shows it, Markdown's backticks and all.
 */
public record AlarmPage(String alarm, String meaning, String firstCommand, String section) {
  private static final String DLQ_LISTING = "`./fulfil-ops dlq`";
  private static final String MAPPING_STATE = "`aws lambda get-event-source-mapping`";

  public static final List<AlarmPage> ALL = List.of(
      new AlarmPage(AlarmNames.DLQ_NEW_MESSAGES, "orders reached the DLQ, whatever moved them and whatever it held: they"
          + " can never succeed, or their retries ran out", DLQ_LISTING, RunbookSections.DLQ_ALARMS),
      new AlarmPage(AlarmNames.DLQ_NOT_EMPTY, "SQS reports messages in the DLQ; its OK is SQS reporting it empty",
          DLQ_LISTING, RunbookSections.DLQ_ALARMS),
      new AlarmPage(AlarmNames.PARTNER_FAILING, "tries fail and none books: the partner is down, or its key changed",
          "the partner check (`curl`) of its section", RunbookSections.PARTNER_OUTAGE),
      new AlarmPage(AlarmNames.OLDEST_MESSAGE_TOO_OLD, "nobody receives the orders: the mapping is paused or broken",
          MAPPING_STATE, RunbookSections.MESSAGES_SITTING),
      new AlarmPage(AlarmNames.STALLED, "orders wait and nothing receives or deletes any: nothing consumes the queue",
          MAPPING_STATE, RunbookSections.MESSAGES_SITTING),
      new AlarmPage(AlarmNames.BACKLOG, "orders arrive faster than they are booked: each is late, none lost",
          "`./fulfil-ops capacity`", RunbookSections.BACKLOG),
      new AlarmPage(AlarmNames.IN_FLIGHT_NEAR_CAP, "SQS nears its in-flight cap: an outage with a flood, or a stray consumer",
          "`aws lambda list-event-source-mappings`", RunbookSections.IN_FLIGHT),
      new AlarmPage(AlarmNames.FUNCTION_ERRORS, "invocations failed as a whole: a crash, a timeout, out of memory",
          "the Logs Insights query of its section", RunbookSections.FUNCTION_ERRORS),
      new AlarmPage(AlarmNames.FUNCTION_THROTTLES, "Lambda refused to run the function",
          "`aws lambda get-function-concurrency`", RunbookSections.THROTTLES),
      new AlarmPage(AlarmNames.BOOKED_AFTER_HOLD, "the partner booked an order after its hold ended: a second courier is possible",
          "the Logs Insights query of its section", RunbookSections.BOOKED_AFTER_HOLD));

  /** The page of the alarm named so. */
  public static AlarmPage of(String alarm) {
    return ALL.stream().filter(page -> page.alarm().equals(alarm)).findFirst()
        .orElseThrow(() -> new NoSuchElementException("no page for the alarm " + alarm));
  }
}
