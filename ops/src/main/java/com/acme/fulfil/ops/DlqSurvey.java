package com.acme.fulfil.ops;

import com.acme.fulfil.contract.sqs.SqsLimits;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code dlq}: every message in the DLQ with its order, why it is there (from its attributes, or from
 * the function's logs for one the redrive policy moved), what the order's record says, how long until
 * SQS deletes it, and whether it should be redriven or dropped ({@link DeadLetterVerdict}).
 */
final class DlqSurvey {
  private final Stack stack;
  private final Clock clock;

  DlqSurvey(Stack stack, Clock clock) {
    this.stack = stack;
    this.clock = clock;
  }

  /** One dead letter, its order's record, what to do with it, and why it is there as far as anything says. */
  record Entry(DeadLetter letter, Optional<OrderRecord> record, DeadLetterVerdict verdict, Optional<String> reason) {
    boolean orderBooked() {
      return record.filter(OrderRecord::booked).isPresent();
    }

    String failureClass() {
      return verdict.failureClass().orElse(letter.failureClass());
    }
  }

  /**
   * What one read of the DLQ saw, judged, and how many messages SQS counted there.
   *
   * @param counted see {@link DeadLetterQueue.Reading#counted()}
   */
  record Survey(List<Entry> entries, long counted) {
    boolean complete() {
      return counted <= entries.size();
    }

    /** Says how many were read of how many, and what to do; empty when the read saw them all. */
    Optional<String> shortfall() {
      return complete() ? Optional.empty() : Optional.of("read " + entries.size() + " of the " + counted
          + " message(s) SQS counts in the DLQ: another reader (a dlq, drop or redrive run, or a console poll) holds"
          + " the others for now, or they arrived during the read. Run the command again in a minute.");
    }
  }

  Survey read() {
    FunctionLogs logs = new FunctionLogs(stack);
    DeadLetterQueue.Reading reading = new DeadLetterQueue(stack.aws().sqs(), stack.dlqUrl(), stack.budget().dlqRetention())
        .readAll();
    List<Entry> entries = new ArrayList<>();
    for (DeadLetter received : reading.letters()) {
      entries.add(judge(received, logs));
    }
    return new Survey(entries, reading.counted());
  }

  /** The letter with its order's record, its verdict and its reason (the verdict's, its label's, else the function's logs). */
  Entry judge(DeadLetter read) {
    return judge(read, new FunctionLogs(stack));
  }

  private Entry judge(DeadLetter letter, FunctionLogs logs) {
    Optional<OrderRecord> record = letter.orderId().flatMap(id -> OrderRecord.read(stack, id));
    DeadLetterVerdict verdict = DeadLetterVerdict.of(letter, record);
    Optional<String> reason = verdict.reason().or(letter::reason).or(() -> logs.available()
        ? logs.lastProblem(letter.sourceMessageId(), letter.sentAt().minus(SqsLimits.MAX_RETENTION)) : Optional.empty());
    return new Entry(letter, record, verdict, reason);
  }

  Report report() {
    Instant now = clock.instant();
    Survey survey = read();
    List<Entry> entries = survey.entries();
    ObjectMapper json = new ObjectMapper();
    ObjectNode out = json.createObjectNode().put("dlq_url", stack.dlqUrl()).put("messages", entries.size())
        .put("messages_counted", survey.counted()).put("complete", survey.complete());
    ArrayNode list = out.putArray("dead_letters");
    List<String> lines = new ArrayList<>();
    // First, so that nobody takes a partial list for the whole DLQ.
    survey.shortfall().ifPresentOrElse(lines::add,
        () -> lines.add(entries.size() + " message(s) in the DLQ of " + stack.description()));
    // What a redrive sets going: on-call's next question after "why is it here" is "when is it tried again".
    TimingBudget budget = stack.budget();
    lines.add("A redriven message is tried at once, as a new life: " + budget.retrySentence() + ".");
    out.putObject("after_redrive")
        .put("first_try", "at once")
        .put("receives", budget.maxReceiveCount())
        .put("shortest_retrying_seconds", budget.retrySchedule().shortestRetrying(budget.maxReceiveCount()).toSeconds())
        .put("longest_retrying_seconds", budget.longestRetryLife().toSeconds());
    for (Entry entry : entries) {
      DeadLetter letter = entry.letter();
      Duration left = Duration.between(now, letter.deletedBySqsAt());
      lines.add("");
      lines.add("  message " + letter.messageId() + (letter.sourceMessageId().equals(letter.messageId()) ? ""
          : " (for source message " + letter.sourceMessageId() + ")"));
      lines.add("    order    " + letter.orderId().orElse("(no readable order id)")
          + (entry.orderBooked() ? ", booked already" : ", not booked"));
      lines.add("    class    " + entry.failureClass() + letter.labelledAt().map(at -> " (labelled " + at + ")").orElse(""));
      letter.traceId().ifPresent(trace -> lines.add("    trace    " + trace));
      lines.add("    reason   " + entry.reason().orElse(stack.local()
          ? "(in the function's log lines for message " + letter.sourceMessageId() + ")"
          : "(no WARN or ERROR line found for message " + letter.sourceMessageId() + ")"));
      entry.record().ifPresent(r -> lines.add("    record   " + r.tries() + " tr" + (r.tries() == 1 ? "y" : "ies")
          + r.lastTryAt().map(at -> ", the last at " + at).orElse("") + r.lastOutcome().map(o -> ", " + o).orElse("")
          + r.lastReason().map(why -> ": " + why).orElse("")));
      lines.add("    deleted by SQS in " + human(left) + " (" + letter.deletedBySqsAt() + ")");
      lines.add("    " + (entry.verdict().drop() ? "drop: " : "redrive: ") + entry.verdict().why());
      ObjectNode item = list.addObject()
          .put("message_id", letter.messageId())
          .put("source_message_id", letter.sourceMessageId())
          .put("failure_class", entry.failureClass())
          .put("order_booked", entry.orderBooked())
          .put("deleted_by_sqs_at", letter.deletedBySqsAt().toString())
          .put("seconds_left", left.toSeconds())
          .put("action", entry.verdict().drop() ? "drop" : "redrive")
          .put("why", entry.verdict().why());
      item.put("order_id", letter.orderId().orElse(null));
      item.put("reason", entry.reason().orElse(null));
      item.put("trace_id", letter.traceId().orElse(null));
      item.put("failure_at", letter.labelledAt().map(Instant::toString).orElse(null));
      item.put("first_sent_at", letter.firstSentAt().map(Instant::toString).orElse(null));
      entry.record().ifPresent(r -> {
        ObjectNode record = item.putObject("record").put("tries", r.tries());
        record.put("last_try_at", r.lastTryAt().map(Instant::toString).orElse(null));
        record.put("last_outcome", r.lastOutcome().orElse(null));
        record.put("last_reason", r.lastReason().orElse(null));
      });
    }
    survey.shortfall().ifPresent(shortfall -> {
      lines.add("");
      lines.add("INCOMPLETE: " + shortfall);
    });
    return new Report(lines, out, survey.complete() ? 0 : 1);
  }

  static String human(Duration d) {
    if (d.isNegative()) {
      return "no time (due now)";
    }
    return d.toDays() > 0 ? d.toDays() + " d " + d.toHoursPart() + " h"
        : d.toHours() > 0 ? d.toHours() + " h " + d.toMinutesPart() + " min" : d.toMinutes() + " min " + d.toSecondsPart() + " s";
  }
}
