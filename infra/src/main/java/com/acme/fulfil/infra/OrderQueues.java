package com.acme.fulfil.infra;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.order.OrderMessage;
import java.util.List;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.amazon.awscdk.services.sqs.RedriveAllowPolicy;
import software.amazon.awscdk.services.sqs.RedrivePermission;
import software.constructs.Construct;

/**
 * {@code orders-to-fulfil} and its dead-letter queue {@code orders-to-fulfil-dlq}: visibility,
 * retention and redrive straight from the timing budget, both encrypted, TLS-only and kept when the stack goes.
 */
public final class OrderQueues extends Construct {
  static final String SOURCE_QUEUE_NAME = OrderMessage.QUEUE_NAME;
  static final String DLQ_NAME = SOURCE_QUEUE_NAME + "-dlq";
  /**
   * Both queues outlive the stack and any update that would replace them: they hold up to 4 days of
   * waiting orders and 14 days of dead letters. Only the deploy that creates them deletes them again if it
   * rolls back: then they are new and empty (the checkout service is pointed at them after that deploy),
   * and kept, their names would stop the next try with "already exists".
   */
  private static final RemovalPolicy KEPT = RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE;

  private final Queue source;
  private final Queue deadLetters;

  public OrderQueues(Construct scope, String id, TimingBudget budget) {
    super(scope, id);
    // The source queue names the DLQ in its redrive policy and the DLQ names the source in its
    // redrive-allow policy; referring to the source by its ARN built from the fixed name, not by the
    // resource, keeps CloudFormation from seeing a cycle.
    String sourceArn = Stack.of(this).formatArn(ArnComponents.builder()
        .service("sqs").resource(SOURCE_QUEUE_NAME).build());
    deadLetters = Queue.Builder.create(this, "DeadLetters")
        .queueName(DLQ_NAME)
        .retentionPeriod(Duration.seconds(budget.dlqRetention().toSeconds()))
        .encryption(QueueEncryption.SQS_MANAGED)
        .enforceSsl(true)
        .removalPolicy(KEPT)
        // Only orders-to-fulfil may use it, which is also what lets StartMessageMoveTask move
        // messages back to it after a fix.
        .redriveAllowPolicy(RedriveAllowPolicy.builder()
            .redrivePermission(RedrivePermission.BY_QUEUE)
            .sourceQueues(List.of(Queue.fromQueueArn(this, "SourceByArn", sourceArn)))
            .build())
        .build();
    source = Queue.Builder.create(this, "Source")
        .queueName(SOURCE_QUEUE_NAME)
        .visibilityTimeout(Duration.seconds(budget.visibilityTimeout().toSeconds()))
        .retentionPeriod(Duration.seconds(budget.sourceRetention().toSeconds()))
        .encryption(QueueEncryption.SQS_MANAGED)
        .enforceSsl(true)
        .removalPolicy(KEPT)
        .deadLetterQueue(DeadLetterQueue.builder()
            .queue(deadLetters)
            .maxReceiveCount(budget.maxReceiveCount())
            .build())
        .build();
  }

  public Queue source() {
    return source;
  }

  public Queue deadLetters() {
    return deadLetters;
  }
}
