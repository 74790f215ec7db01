package com.acme.fulfil.ops;

import com.acme.fulfil.contract.records.OrderLogFields;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.cloudwatchlogs.model.FilteredLogEvent;
import software.amazon.awssdk.services.cloudwatchlogs.model.ResourceNotFoundException;

/** The function's log lines in CloudWatch Logs, searched by an order id or a message id. */
final class FunctionLogs {
  private static final int MOST = 50;
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

  private final Optional<CloudWatchLogsClient> logs;
  private final String group;

  FunctionLogs(Stack stack) {
    this.logs = stack.aws().logs();
    this.group = stack.logGroup();
  }

  boolean available() {
    return logs.isPresent();
  }

  /** The most recent lines (oldest first) that contain {@code term}, since {@code since}. */
  List<String> lines(String term, Instant since) {
    if (logs.isEmpty()) {
      return List.of();
    }
    try {
      List<FilteredLogEvent> events = logs.get().filterLogEventsPaginator(r -> r.logGroupName(group)
          .filterPattern("\"" + term.replace("\"", "") + "\"").startTime(since.toEpochMilli())).events().stream().toList();
      return events.subList(Math.max(0, events.size() - MOST), events.size()).stream()
          .map(event -> event.message().strip()).toList();
    } catch (ResourceNotFoundException e) {
      return List.of();
    }
  }

  /** What the function last said went wrong for a message: its last WARN or ERROR line's message. */
  Optional<String> lastProblem(String messageId, Instant since) {
    return lines(messageId, since).reversed().stream()
        .filter(line -> line.contains("\"WARN\"") || line.contains("\"ERROR\""))
        .map(FunctionLogs::messageOf)
        .findFirst();
  }

  /** The trace ids the lines carry, in the order they first appear: an order sent twice may have come in two traces. */
  static List<String> traceIds(List<String> lines) {
    return lines.stream().map(line -> field(line, OrderLogFields.TRACE_ID)).flatMap(Optional::stream).distinct().toList();
  }

  /**
   * When the function last set the order's message to return for its next try: the newest line with
   * {@value OrderLogFields#NEXT_TRY_AT}. Empty when no try of the lines failed with a wait of its own.
   */
  static Optional<Instant> nextTryAt(List<String> lines) {
    return lines.reversed().stream()
        .map(line -> field(line, OrderLogFields.NEXT_TRY_AT))
        .flatMap(Optional::stream)
        .findFirst()
        .flatMap(FunctionLogs::instant);
  }

  private static Optional<Instant> instant(String text) {
    try {
      return Optional.of(Instant.parse(text));
    } catch (java.time.format.DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** The function logs one JSON object per line (observability.JsonLogFormatter). */
  private static String messageOf(String line) {
    return field(line, "message").orElse(line);
  }

  private static Optional<String> field(String line, String name) {
    try {
      com.fasterxml.jackson.databind.JsonNode value = JSON.readTree(line).get(name);
      return value != null && value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return Optional.empty();
    }
  }
}
