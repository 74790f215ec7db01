package com.acme.fulfil.runbook;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The AWS CLI calls docs/runbook.md has on call make in AWS: every {@code aws SERVICE OPERATION} of the {@code sh}
 * blocks of every section but the rehearsals on the local stack, as the IAM action it needs and, for SQS, the queue it
 * names ({@code orders-to-fulfil} or {@code orders-to-fulfil-dlq}).
 */
public final class RunbookAwsCalls {
  private static final Pattern AWS_CALL = Pattern.compile("(?:^|[\\s($|;&])aws\\s+([a-z0-9-]+)\\s+([a-z0-9-]+)");
  private static final String DLQ = "orders-to-fulfil-dlq";
  private static final String SOURCE = "orders-to-fulfil";

  /** One call: its IAM action, the queue an SQS call names, and the section and command it comes from. */
  public record Call(String action, Optional<String> queue, String where) {}

  private RunbookAwsCalls() {}

  public static List<Call> inRunbook() {
    List<Call> calls = new ArrayList<>();
    for (RunbookDocument.Section section : Repository.containingThisTest().runbook().sections()) {
      if (section.title().toLowerCase(Locale.ROOT).contains(RunbookDrillTest.REHEARSALS)) {
        continue; // typed against ./run-local --serve, never against AWS
      }
      for (String command : section.commands()) {
        Matcher call = AWS_CALL.matcher(command);
        while (call.find()) {
          String service = call.group(1);
          Optional<String> queue = service.equals("sqs") ? Optional.of(queue(command, call.group(2))) : Optional.empty();
          calls.add(new Call(service + ":" + pascal(call.group(2)), queue, section.title() + ": " + command));
        }
      }
    }
    return calls;
  }

  /** The DLQ where the command names it (a move task's source is the DLQ), else the queue; a task handle is a DLQ's. */
  private static String queue(String command, String operation) {
    if (command.contains("$DLQ_URL") || command.contains("$DLQ_ARN") || operation.equals("cancel-message-move-task")) {
      return DLQ;
    }
    if (command.contains("$QUEUE_URL") || command.contains("$SOURCE_QUEUE_ARN")) {
      return SOURCE;
    }
    throw new AssertionError("an SQS command of the runbook that names neither queue: " + command);
  }

  /** The CLI's operation name as the API and IAM spell it: get-queue-attributes, GetQueueAttributes. */
  private static String pascal(String kebab) {
    return Arrays.stream(kebab.split("-")).map(word -> Character.toUpperCase(word.charAt(0)) + word.substring(1))
        .collect(Collectors.joining());
  }
}
