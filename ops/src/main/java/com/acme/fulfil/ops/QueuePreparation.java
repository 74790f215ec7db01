package com.acme.fulfil.ops;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * {@code cutover --prepare-queues}: gives orders-to-fulfil, and the DLQ it creates, exactly the properties the
 * stack declares for them (OrderQueues; the numbers from the committed budget), before the deploy imports
 * both. CloudFormation's import keeps a resource as it finds it, and a later deploy changes only what its
 * template changes: a queue imported at the old 30 s would stay at 30 s under a template that says otherwise.
 * The stack's queue policy is a resource of its own, which the deploy creates.
 */
final class QueuePreparation {
  static final String DLQ_SUFFIX = "-dlq";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SqsClient sqs;
  private final TimingBudget budget;

  QueuePreparation(SqsClient sqs, TimingBudget budget) {
    this.sqs = sqs;
    this.budget = budget;
  }

  Report prepare(String queueUrl, String queueArn) {
    String dlqName = queueArn.substring(queueArn.lastIndexOf(':') + 1) + DLQ_SUFFIX;
    ObjectNode redriveAllow = JSON.createObjectNode().put("redrivePermission", "byQueue");
    redriveAllow.putArray("sourceQueueArns").add(queueArn);
    String dlqUrl = sqs.createQueue(r -> r.queueName(dlqName).attributes(Map.of(
        QueueAttributeName.MESSAGE_RETENTION_PERIOD, seconds(budget.dlqRetention()),
        QueueAttributeName.SQS_MANAGED_SSE_ENABLED, "true",
        QueueAttributeName.REDRIVE_ALLOW_POLICY, redriveAllow.toString()))).queueUrl();
    String dlqArn = sqs.getQueueAttributes(r -> r.queueUrl(dlqUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
        .attributes().get(QueueAttributeName.QUEUE_ARN);
    String redrive = JSON.createObjectNode().put("deadLetterTargetArn", dlqArn)
        .put("maxReceiveCount", budget.maxReceiveCount()).toString();
    Map<QueueAttributeName, String> source = Map.of(
        QueueAttributeName.VISIBILITY_TIMEOUT, seconds(budget.visibilityTimeout()),
        QueueAttributeName.MESSAGE_RETENTION_PERIOD, seconds(budget.sourceRetention()),
        QueueAttributeName.SQS_MANAGED_SSE_ENABLED, "true",
        QueueAttributeName.REDRIVE_POLICY, redrive);
    sqs.setQueueAttributes(r -> r.queueUrl(queueUrl).attributes(source));
    // cutover's fields, as every cutover answer has them: no mapping is left, and this step does not judge quiet.
    ObjectNode json = JSON.createObjectNode().put("queue_url", queueUrl).put("dlq_url", dlqUrl).putNull("quiet_from")
        .putNull("quiet");
    json.putArray("mappings");
    return new Report(List.of(
        queueUrl + ": visibility " + budget.visibilityTimeout().toSeconds() + " s, retention "
            + budget.sourceRetention().toSeconds() + " s, SQS-managed encryption, redrive to " + dlqUrl + " after "
            + budget.maxReceiveCount() + " receives, as the stack declares it",
        "Next: npx cdk deploy --app cdk.out --import-existing-resources fulfil-order (docs/deploy.md), then"
            + " ./fulfil-ops check: no drift on either queue."), json, 0);
  }

  private static String seconds(java.time.Duration duration) {
    return Long.toString(duration.toSeconds());
  }
}
