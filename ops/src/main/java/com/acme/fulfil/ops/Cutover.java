package com.acme.fulfil.ops;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.order.OrderMessage;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * {@code --go} disabled, and when the quiet time ends ({@link CutoverVerdict}); once they are deleted,
 * {@code --prepare-queues} ({@link QueuePreparation}). It refuses to run once the stack exists: then the
 * mapping on the queue is the stack's own.
 */
final class Cutover {
  /** Lambda moves a mapping from Disabling to Disabled in seconds; far past that, something else is wrong. */
  static final Duration DISABLE_WAIT = Duration.ofMinutes(5);
  private static final Duration POLL = Duration.ofSeconds(5);

  private final SqsClient sqs;
  private final LambdaClient lambda;
  private final CloudFormationClient cloudFormation;
  private final String stackName;
  private final QueuePreparation preparation;
  private final Clock clock;

  Cutover(SqsClient sqs, LambdaClient lambda, CloudFormationClient cloudFormation, String stackName,
      QueuePreparation preparation, Clock clock) {
    this.preparation = preparation;
    this.sqs = sqs;
    this.lambda = lambda;
    this.cloudFormation = cloudFormation;
    this.stackName = stackName;
    this.clock = clock;
  }

  /** What the command was asked to do beyond reporting. */
  enum Step { REPORT, DISABLE, PREPARE_QUEUES }

  Report run(Step step, PrintStream progress) throws InterruptedException {
    if (stackExists()) {
      throw new OpsException("the stack " + stackName + " exists: the mapping on " + OrderMessage.QUEUE_NAME + " is its own,"
          + " and cutover is only for before the first deploy");
    }
    String queueUrl;
    try {
      queueUrl = sqs.getQueueUrl(r -> r.queueName(OrderMessage.QUEUE_NAME)).queueUrl();
    } catch (QueueDoesNotExistException e) {
      return new Report(List.of("No queue " + OrderMessage.QUEUE_NAME + " in this account and region: nothing to cut over;"
          + " the first deploy creates it."), noQueue(), 0);
    }
    var attributes = sqs.getQueueAttributes(r -> r.queueUrl(queueUrl)
        .attributeNames(QueueAttributeName.QUEUE_ARN, QueueAttributeName.VISIBILITY_TIMEOUT)).attributes();
    String queueArn = attributes.get(QueueAttributeName.QUEUE_ARN);
    // Read before --prepare-queues sets the stack's: the old mappings' batches could wait this long for their invocation.
    Duration visibility = Duration.ofSeconds(Long.parseLong(attributes.get(QueueAttributeName.VISIBILITY_TIMEOUT)));
    if (step == Step.DISABLE) {
      disableAll(queueArn, progress);
    }
    List<OldMapping> mappings = mappings(queueArn).stream().map(this::describe).toList();
    if (step == Step.PREPARE_QUEUES) {
      if (!mappings.isEmpty()) {
        throw new OpsException("a mapping still reads " + OrderMessage.QUEUE_NAME + ": the queues are prepared only once"
            + " cutover has said quiet and the old mappings and function are deleted");
      }
      return preparation.prepare(queueUrl, queueArn);
    }
    return CutoverVerdict.of(queueUrl, visibility, mappings, TimingBudget.defaults().lateBookingHold(), clock.instant());
  }

  /** Nothing to wait for: no queue, so no order the old setup can still book. */
  private static ObjectNode noQueue() {
    ObjectNode json = new ObjectMapper().createObjectNode().putNull("queue_url").putNull("dlq_url").putNull("quiet_from")
        .put("quiet", true);
    json.putArray("mappings");
    return json;
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
