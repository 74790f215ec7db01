package com.acme.fulfil.ops;

import com.acme.fulfil.contract.TimingBudget;
import com.acme.fulfil.order.OrderMessage;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.EventSourceMappingConfiguration;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/**
 * {@code cutover}: before the first deploy, the old setup's event source mappings on orders-to-fulfil, with
 * {@code --go} disabled, and when the quiet time ends ({@link CutoverVerdict}). It refuses to run once the
 * stack exists: then the mapping on the queue is the stack's own.
 */
final class Cutover {
  /** Lambda moves a mapping from Disabling to Disabled in seconds; far past that, something else is wrong. */
  static final Duration DISABLE_WAIT = Duration.ofMinutes(5);
  private static final Duration POLL = Duration.ofSeconds(5);

  private final SqsClient sqs;
  private final LambdaClient lambda;
  private final CloudFormationClient cloudFormation;
  private final String stackName;
  private final Clock clock;

  Cutover(SqsClient sqs, LambdaClient lambda, CloudFormationClient cloudFormation, String stackName, Clock clock) {
    this.sqs = sqs;
    this.lambda = lambda;
    this.cloudFormation = cloudFormation;
    this.stackName = stackName;
    this.clock = clock;
  }

  Report run(boolean go, PrintStream progress) throws InterruptedException {
    if (stackExists()) {
      throw new OpsException("the stack " + stackName + " exists: the mapping on " + OrderMessage.QUEUE_NAME + " is its own,"
          + " and cutover is only for before the first deploy");
    }
    String queueUrl;
    try {
      queueUrl = sqs.getQueueUrl(r -> r.queueName(OrderMessage.QUEUE_NAME)).queueUrl();
    } catch (QueueDoesNotExistException e) {
      return new Report(List.of("No queue " + OrderMessage.QUEUE_NAME + " in this account and region: nothing to cut over;"
          + " the first deploy creates it."), new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode()
          .putNull("queue_url").put("quiet", true), 0);
    }
    String queueArn = sqs.getQueueAttributes(r -> r.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
        .attributes().get(QueueAttributeName.QUEUE_ARN);
    if (go) {
      disableAll(queueArn, progress);
    }
    List<OldMapping> mappings = mappings(queueArn).stream().map(this::describe).toList();
    return CutoverVerdict.of(queueUrl, mappings, TimingBudget.defaults().lateBookingHold(), clock.instant());
  }

  private boolean stackExists() {
    try {
      return !cloudFormation.describeStacks(r -> r.stackName(stackName)).stacks().isEmpty();
    } catch (CloudFormationException e) {
      // DescribeStacks answers a stack that does not exist with a ValidationError.
      if (e.statusCode() == 400 && String.valueOf(e.getMessage()).contains("does not exist")) {
        return false;
      }
      throw e;
    }
  }

  private void disableAll(String queueArn, PrintStream progress) throws InterruptedException {
    for (EventSourceMappingConfiguration mapping : mappings(queueArn)) {
      if ("Enabled".equals(mapping.state())) {
        progress.println("disabling " + mapping.uuid() + " -> " + mapping.functionArn());
        lambda.updateEventSourceMapping(r -> r.uuid(mapping.uuid()).enabled(false));
      }
    }
    Instant deadline = clock.instant().plus(DISABLE_WAIT);
    while (!mappings(queueArn).stream().allMatch(m -> OldMapping.DISABLED.equals(m.state()))) {
      if (clock.instant().isAfter(deadline)) {
        progress.println("a mapping was not Disabled within " + DISABLE_WAIT.toMinutes() + " minutes");
        return;
      }
      Thread.sleep(POLL);
    }
  }

  private List<EventSourceMappingConfiguration> mappings(String queueArn) {
    return lambda.listEventSourceMappingsPaginator(r -> r.eventSourceArn(queueArn)).eventSourceMappings().stream().toList();
  }

  private OldMapping describe(EventSourceMappingConfiguration mapping) {
    int timeout = lambda.getFunctionConfiguration(r -> r.functionName(mapping.functionArn())).timeout();
    return new OldMapping(mapping.uuid(), mapping.functionArn(), mapping.state(), mapping.lastModified(),
        Duration.ofSeconds(timeout));
  }
}
