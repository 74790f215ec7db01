package com.acme.fulfil.ops;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The local stack's queue against the budget {@code ./run-local --serve} created it from, which it prints: in AWS,
 * CloudFormation's drift detection compares every resource with its template, but the local stack has none.
 */
final class LocalQueueCheck {
  static final String CHECKED = "the queue's visibility timeout and redrive policy";
  static final String NOT_CHECKED = "the queues' retention, the table, the function and its mapping";
  private static final String PUT_BACK = "; set it back, or start ./run-local --serve again";

  private LocalQueueCheck() {}

  static List<String> findings(Stack stack) {
    TimingBudget budget = stack.budget();
    Map<QueueAttributeName, String> queue = stack.aws().sqs().getQueueAttributes(r -> r.queueUrl(stack.queueUrl())
        .attributeNames(QueueAttributeName.VISIBILITY_TIMEOUT, QueueAttributeName.REDRIVE_POLICY)).attributes();
    List<String> findings = new ArrayList<>();
    String visibility = queue.get(QueueAttributeName.VISIBILITY_TIMEOUT);
    if (!visibility.equals(Long.toString(budget.visibilityTimeout().toSeconds()))) {
      findings.add("orders-to-fulfil's visibility timeout is " + visibility + " s, ./run-local --serve created it with "
          + budget.visibilityTimeout().toSeconds() + " s: a try that outlives it is handed to a second invocation"
          + PUT_BACK);
    }
    String policy = queue.getOrDefault(QueueAttributeName.REDRIVE_POLICY, "");
    if (!redrivesTo(policy, budget.maxReceiveCount(), stack.dlqArn())) {
      findings.add("orders-to-fulfil's redrive policy is " + (policy.isBlank() ? "none" : policy) + ", ./run-local"
          + " --serve created it to move a message to " + stack.dlqArn() + " after " + budget.maxReceiveCount()
          + " receives" + PUT_BACK);
    }
    return findings;
  }

  private static boolean redrivesTo(String policy, int maxReceiveCount, String dlqArn) {
    try {
      var redrive = new ObjectMapper().readTree(policy.isBlank() ? "{}" : policy);
      return redrive.path("maxReceiveCount").asInt() == maxReceiveCount
          && redrive.path("deadLetterTargetArn").asText().equals(dlqArn);
    } catch (JsonProcessingException e) {
      return false;
    }
  }
}
