package com.acme.fulfil.local.scenario;

import com.acme.fulfil.contract.alarms.AlarmNames;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * How an alarm's page stands on {@code ./run-local --serve}: whether it plays the alarm at all (and why
 * not), and what on-call rehearses or runs there instead of the AWS-only first command. One source for
 * the column "on the local stack" of docs/runbook.md's opening table and for the pages {@code --serve}
 * prints.
 *
 * @param notPlayed why {@code --serve} cannot play the alarm, for one it cannot
 * @param onTheLocalStack as the runbook's table shows it, Markdown's backticks and all
 */
public record LocalStandIn(String alarm, Optional<String> notPlayed, String onTheLocalStack) {
  private static final String QUEUE_COUNTS = "`aws sqs get-queue-attributes` on `$QUEUE_URL` instead";

  public static final List<LocalStandIn> ALL = List.of(
      played(AlarmNames.DLQ_NEW_MESSAGES, "rehearsed: a poison message, a partner's `422`"),
      played(AlarmNames.DLQ_NOT_EMPTY, "rehearsed: a poison message, a partner's `422`"),
      played(AlarmNames.PARTNER_FAILING, "rehearsed: an outage, a rotated key"),
      new LocalStandIn(AlarmNames.OLDEST_MESSAGE_TOO_OLD,
          Optional.of("SQS's age of the oldest message is a CloudWatch metric; the local run knows it only for orders it"
              + " sends itself, not for those a shell sends"),
          "not played; the mapping's state needs AWS: " + QUEUE_COUNTS),
      played(AlarmNames.STALLED, "played, never caused: the local mapping cannot be paused, and its state needs AWS: "
          + QUEUE_COUNTS),
      played(AlarmNames.BACKLOG, "played, not rehearsed: a shell sends too few orders; `./fulfil-ops capacity` runs"
          + " without the last hour"),
      played(AlarmNames.IN_FLIGHT_NEAR_CAP, "played, never reached: the mappings need AWS: " + QUEUE_COUNTS),
      played(AlarmNames.FUNCTION_ERRORS, "played, not rehearsed: Logs Insights needs AWS; the `ERROR` lines `--serve`"
          + " prints instead"),
      new LocalStandIn(AlarmNames.FUNCTION_THROTTLES,
          Optional.of("the local mapping never invokes beyond the function's concurrency, and nothing else invokes it"),
          "not played; Lambda's concurrency needs AWS: the local function is never throttled"),
      played(AlarmNames.BOOKED_AFTER_HOLD, "played, not rehearsed: Logs Insights needs AWS; `./fulfil-ops order` on"
          + " the order instead"));

  private static LocalStandIn played(String alarm, String onTheLocalStack) {
    return new LocalStandIn(alarm, Optional.empty(), onTheLocalStack);
  }

  /** The stand-in of the alarm named so. */
  public static LocalStandIn of(String alarm) {
    return ALL.stream().filter(standIn -> standIn.alarm().equals(alarm)).findFirst()
        .orElseThrow(() -> new NoSuchElementException("no local stand-in for the alarm " + alarm));
  }
}
