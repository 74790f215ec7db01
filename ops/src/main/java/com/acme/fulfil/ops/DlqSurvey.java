package com.acme.fulfil.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code dlq}: every message in the DLQ with its order, why it is there (from its attributes, or from
 * the function's logs for one the redrive policy moved), whether the order is booked already, how long
 * until SQS deletes it, and so whether it should be redriven or dropped.
 */
final class DlqSurvey {
  private final Stack stack;
  private final Clock clock;

  DlqSurvey(Stack stack, Clock clock) {
    this.stack = stack;
    this.clock = clock;
  }

  /** One dead letter and what to do with it. */
  record Entry(DeadLetter letter, boolean orderBooked, boolean drop, String why) {}

  List<Entry> entries() {
    FunctionLogs logs = new FunctionLogs(stack);
    List<Entry> entries = new ArrayList<>();
    for (DeadLetter read : new DeadLetterQueue(stack.aws().sqs(), stack.dlqUrl(), stack.budget().dlqRetention()).readAll()) {
      DeadLetter letter = read.reason().isPresent() || !logs.available() ? read
          : read.withReason(logs.lastProblem(read.sourceMessageId(), read.sentAt().minus(Duration.ofDays(14))));
      entries.add(judge(letter, letter.orderId().flatMap(id -> OrderRecord.read(stack, id))));
    }
    return entries;
  }

  /** What on-call should do with one dead letter, given its order's record (if it has one). */
  static Entry judge(DeadLetter letter, java.util.Optional<OrderRecord> record) {
    if (record.filter(OrderRecord::booked).isPresent()) {
      return new Entry(letter, true, true, "its order is booked already: a redrive would only be suppressed");
    }
    if (letter.poison()) {
      return new Entry(letter, false, true, letter.failureClass() + " can never succeed as sent: archive it, then"
          + " tell the producer (invalid_message) or fix the order with the customer and the partner (partner_rejected)");
    }
    return new Entry(letter, false, false, "its tries ran out on a failure that may have passed: redrive it once"
        + " the cause is fixed");
  }

  Report report() {
    Instant now = clock.instant();
    List<Entry> entries = entries();
    ObjectMapper json = new ObjectMapper();
    ObjectNode out = json.createObjectNode().put("dlq_url", stack.dlqUrl()).put("messages", entries.size());
    ArrayNode list = out.putArray("dead_letters");
    List<String> lines = new ArrayList<>();
    lines.add(entries.size() + " message(s) in the DLQ of " + stack.description());
    for (Entry entry : entries) {
      DeadLetter letter = entry.letter();
      Duration left = Duration.between(now, letter.deletedBySqsAt());
      lines.add("");
      lines.add("  message " + letter.messageId() + (letter.sourceMessageId().equals(letter.messageId()) ? ""
          : " (for source message " + letter.sourceMessageId() + ")"));
      lines.add("    order    " + letter.orderId().orElse("(no readable order id)")
          + (entry.orderBooked() ? ", booked already" : ", not booked"));
      lines.add("    class    " + letter.failureClass());
      letter.traceId().ifPresent(trace -> lines.add("    trace    " + trace));
      lines.add("    reason   " + letter.reason().orElse(stack.local()
          ? "(in the function's log lines for message " + letter.sourceMessageId() + ")"
          : "(no WARN or ERROR line found for message " + letter.sourceMessageId() + ")"));
      lines.add("    deleted by SQS in " + human(left) + " (" + letter.deletedBySqsAt() + ")");
      lines.add("    " + (entry.drop() ? "drop: " : "redrive: ") + entry.why());
      ObjectNode item = list.addObject()
          .put("message_id", letter.messageId())
          .put("source_message_id", letter.sourceMessageId())
          .put("failure_class", letter.failureClass())
          .put("order_booked", entry.orderBooked())
          .put("deleted_by_sqs_at", letter.deletedBySqsAt().toString())
          .put("seconds_left", left.toSeconds())
          .put("action", entry.drop() ? "drop" : "redrive")
          .put("why", entry.why());
      item.put("order_id", letter.orderId().orElse(null));
      item.put("reason", letter.reason().orElse(null));
      item.put("trace_id", letter.traceId().orElse(null));
    }
    return new Report(lines, out, 0);
  }

  static String human(Duration d) {
    if (d.isNegative()) {
      return "no time (due now)";
    }
    return d.toDays() > 0 ? d.toDays() + " d " + d.toHoursPart() + " h"
        : d.toHours() > 0 ? d.toHours() + " h " + d.toMinutesPart() + " min" : d.toMinutes() + " min " + d.toSecondsPart() + " s";
  }
}
