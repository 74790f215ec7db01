package com.acme.fulfil.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.sqs.model.ListMessageMoveTasksResultEntry;

/**
 * {@code redrive}: by default a dry run that says what would move back to orders-to-fulfil, what should
 * be dropped first and at what rate; with {@code --go}, a StartMessageMoveTask to the source queue and
 * its progress until it ends. It cannot book an order twice: every redriven message is claimed on its
 * order id like any other delivery, and an order already booked is suppressed. It refuses to move
 * messages that should be dropped (they would only come back) unless told to.
 */
final class Redrive {
  private static final Duration POLL = Duration.ofSeconds(2);
  private static final Duration FIRST_LOOK = Duration.ofMillis(250);
  /** How long a started task may take to appear in ListMessageMoveTasks (eventually consistent). */
  private static final Duration TASK_LISTED = Duration.ofSeconds(30);

  private final Stack stack;
  private final DlqSurvey survey;
  private final ObjectMapper json = new ObjectMapper();

  Redrive(Stack stack, DlqSurvey survey) {
    this.stack = stack;
    this.survey = survey;
  }

  Report run(boolean go, boolean includeDroppable, int ratePerSecond, PrintStream progress) throws InterruptedException {
    DlqSurvey.Survey read = survey.read();
    List<DlqSurvey.Entry> entries = read.entries();
    List<DlqSurvey.Entry> drop = entries.stream().filter(e -> e.verdict().drop()).toList();
    int moving = includeDroppable ? entries.size() : entries.size() - drop.size();
    List<String> lines = new ArrayList<>();
    ObjectNode out = json.createObjectNode().put("would_move", moving).put("rate_per_second", ratePerSecond);
    var dropIds = out.putArray("drop_first");
    drop.forEach(e -> dropIds.add(e.letter().messageId()));
    lines.add(entries.size() + " message(s) in the DLQ: " + (entries.size() - drop.size()) + " to redrive, " + drop.size()
        + " to drop first; at " + ratePerSecond + " message(s) a second");
    drop.forEach(e -> lines.add("  drop " + e.letter().messageId() + " (" + e.letter().orderId().orElse("no order id")
        + "): " + e.verdict().why()));
    if (!drop.isEmpty()) {
      lines.add("  archive and delete them with: ./fulfil-ops drop " + String.join(" ",
          drop.stream().map(e -> e.letter().messageId()).toList()));
    }
    // A message this read did not see may be one to drop first: counts and verdicts of a partial read mislead.
    if (read.shortfall().isPresent()) {
      lines.add((go ? "not started: " : "dry run: nothing moved, and the counts above are partial: ") + read.shortfall().get());
      out.put("moved", false);
      return new Report(lines, out, 1);
    }
    if (!go) {
      lines.add("dry run: nothing moved. Run again with --go to start the move.");
      out.put("moved", false);
      return new Report(lines, out, 0);
    }
    if (!drop.isEmpty() && !includeDroppable) {
      lines.add("not started: drop those first (or pass --include-droppable to move them anyway)");
      out.put("moved", false);
      return new Report(lines, out, 1);
    }
    if (entries.isEmpty()) {
      lines.add("nothing to move");
      out.put("moved", false);
      return new Report(lines, out, 0);
    }
    // The destination is named: a message the function sent to the DLQ itself has no source queue of its own.
    String dlqArn = stack.dlqArn();
    long lastStartedBefore = tasks(dlqArn).stream().map(ListMessageMoveTasksResultEntry::startedTimestamp)
        .filter(Objects::nonNull).mapToLong(Long::longValue).max()
        .orElse(Long.MIN_VALUE);
    String taskHandle = stack.aws().sqs().startMessageMoveTask(r -> r.sourceArn(dlqArn).destinationArn(stack.queueArn())
        .maxNumberOfMessagesPerSecond(ratePerSecond)).taskHandle();
    ListMessageMoveTasksResultEntry task = awaitEnd(dlqArn, taskHandle, lastStartedBefore, ratePerSecond, progress);
    lines.add("move task " + task.status() + ": " + task.approximateNumberOfMessagesMoved() + " moved"
        + (task.failureReason() == null ? "" : ", failure: " + task.failureReason())
        + ("RUNNING".equals(task.status()) ? ", and still moving long after what it counted should have: messages keep"
            + " arriving in the DLQ while it runs. Find out why with ./fulfil-ops dlq; stop it with aws sqs"
            + " cancel-message-move-task --task-handle " + taskHandle : "")
        + ". Follow them with ./fulfil-ops order ORDER_ID; ./fulfil-ops dlq shows what came back.");
    out.put("moved", true).put("status", task.status())
        .put("messages_moved", task.approximateNumberOfMessagesMoved());
    return new Report(lines, out, "COMPLETED".equals(task.status()) ? 0 : 1);
  }

  /**
   * Follows the task until it ends. ListMessageMoveTasks may not list a task yet right after
   * StartMessageMoveTask answered: it is waited for, with backoff, for at most {@link #TASK_LISTED}.
   * SQS names a task's handle only while it runs; a task that has ended is ours if it started after
   * every task listed before ours was started (one task runs on a queue at a time).
   */
  private ListMessageMoveTasksResultEntry awaitEnd(String dlqArn, String taskHandle, long lastStartedBefore,
      int ratePerSecond, PrintStream progress) throws InterruptedException {
    long listedBy = System.nanoTime() + TASK_LISTED.toNanos();
    long followedBy = 0;
    Duration wait = FIRST_LOOK;
    while (true) {
      Optional<ListMessageMoveTasksResultEntry> listed = tasks(dlqArn).stream()
          .filter(t -> t.taskHandle() == null ? t.startedTimestamp() != null && t.startedTimestamp() > lastStartedBefore : taskHandle.equals(t.taskHandle()))
          .findFirst();
      if (listed.isEmpty()) {
        if (System.nanoTime() > listedBy) {
          throw new OpsException("the move task " + taskHandle + " started but SQS has not listed it after "
              + TASK_LISTED.toSeconds() + " s: see aws sqs list-message-move-tasks --source-arn " + dlqArn);
        }
        progress.println("  move task " + taskHandle + " not listed yet");
        Thread.sleep(wait.toMillis());
        wait = wait.multipliedBy(2).compareTo(POLL) > 0 ? POLL : wait.multipliedBy(2);
        continue;
      }
      ListMessageMoveTasksResultEntry task = listed.get();
      progress.println("  " + task.status() + ": " + moved(task));
      if (!"RUNNING".equals(task.status()) && !"CANCELLING".equals(task.status())) {
        return task;
      }
      if (followedBy == 0) {
        followedBy = System.nanoTime() + followFor(task, ratePerSecond).toNanos();
      } else if (System.nanoTime() > followedBy) {
        // Still moving long after its messages should have: say so, and where to follow it, rather than wait on.
        return task;
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /**
   * How long a task is followed once listed: what it counted to move at its rate, and a minute more. A task
   * that keeps moving past that is moving messages that arrived in the DLQ since it started (a poison
   * message redriven with the rest comes straight back), which only a person can stop.
   */
  private static Duration followFor(ListMessageMoveTasksResultEntry task, int ratePerSecond) {
    long toMove = task.approximateNumberOfMessagesToMove() == null ? 0 : task.approximateNumberOfMessagesToMove();
    return Duration.ofSeconds(toMove / Math.max(1, ratePerSecond) + 60);
  }

  /**
   * What a task has moved, as far as SQS counts. Both counts are approximate, and the one to move is taken
   * when the task starts: a task that moved what arrived since can report more moved than it counted to
   * move, so the count to move is said only while it is the larger.
   */
  static String moved(ListMessageMoveTasksResultEntry task) {
    long moved = task.approximateNumberOfMessagesMoved() == null ? 0 : task.approximateNumberOfMessagesMoved();
    Long toMove = task.approximateNumberOfMessagesToMove();
    return toMove != null && toMove >= moved ? moved + " of " + toMove + " moved" : moved + " moved";
  }

  private List<ListMessageMoveTasksResultEntry> tasks(String dlqArn) {
    return stack.aws().sqs().listMessageMoveTasks(r -> r.sourceArn(dlqArn)).results();
  }
}
