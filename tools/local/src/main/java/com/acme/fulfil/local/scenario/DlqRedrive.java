package com.acme.fulfil.local.scenario;

import com.acme.fulfil.local.aws.QueueRef;
import java.util.Optional;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * On-call's redrive of the DLQ into the source queue ({@code ./fulfil-ops redrive --go}: SQS's
 * StartMessageMoveTask), started once and followed to its end.
 */
final class DlqRedrive {
  /** Messages a second: the local run's 1/30 of time makes the runbook's slowest redrive pace, 1, this. */
  private static final int MESSAGES_A_SECOND = 30;

  private final SqsClient sqs;
  private final QueueRef dlq;
  private final QueueRef source;
  private volatile Optional<String> taskHandle = Optional.empty();

  DlqRedrive(SqsClient sqs, QueueRef dlq, QueueRef source) {
    this.sqs = sqs;
    this.dlq = dlq;
    this.source = source;
  }

  boolean started() {
    return taskHandle.isPresent();
  }

  void start() {
    taskHandle = Optional.of(sqs.startMessageMoveTask(request -> request.sourceArn(dlq.arn()).destinationArn(source.arn())
        .maxNumberOfMessagesPerSecond(MESSAGES_A_SECOND)).taskHandle());
  }

  /** SQS lists the move task as ended (completed, failed or cancelled); right after its start it may list none yet. */
  boolean finished() {
    return started() && sqs.listMessageMoveTasks(request -> request.sourceArn(dlq.arn()).maxResults(1)).results().stream()
        .anyMatch(task -> !"RUNNING".equals(task.status()));
  }
}
