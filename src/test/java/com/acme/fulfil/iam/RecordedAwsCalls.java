package com.acme.fulfil.iam;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Every AWS call {@code ./fulfil-ops} makes while a test records, as the IAM action that authorizes it and, for SQS, the queue
 * it names: registered for every SDK client of the test JVM (software/amazon/awssdk/global/handlers/
 * execution.interceptors), it keeps only calls made under {@code FulfilOps.run} while {@link #during} runs, so a
 * test's own set-up is not counted. Each call is recorded before it is sent, so one AWS refused counts too.
 */
public final class RecordedAwsCalls implements ExecutionInterceptor {
  /** The SDK's service names, as IAM prefixes their actions. */
  private static final Map<String, String> IAM_PREFIX = Map.of("Sqs", "sqs", "DynamoDb", "dynamodb", "CloudWatch", "cloudwatch",
      "CloudWatchLogs", "logs", "Lambda", "lambda", "CloudFormation", "cloudformation", "Sns", "sns",
      "SecretsManager", "secretsmanager");
  /** SQS authorizes a batch with the action of one message ("the same as for the single action"). */
  private static final Map<String, String> BATCH_ACTION = Map.of("sqs:ChangeMessageVisibilityBatch",
      "sqs:ChangeMessageVisibility", "sqs:DeleteMessageBatch", "sqs:DeleteMessage", "sqs:SendMessageBatch", "sqs:SendMessage");
  private static final String FULFIL_OPS = "com.acme.fulfil.ops.FulfilOps";
  private static final Set<Call> CALLS = ConcurrentHashMap.newKeySet();
  private static volatile boolean recording;

  /** One call: its IAM action, and the queue URL or ARN an SQS call names. */
  public record Call(String action, Optional<String> queue) {}

  /** Runs {@code commands}, and answers every call {@code ./fulfil-ops} made meanwhile. */
  public static synchronized Set<Call> during(Callable<?> commands) throws Exception {
    CALLS.clear();
    recording = true;
    try {
      commands.call();
    } finally {
      recording = false;
    }
    return Set.copyOf(CALLS);
  }

  @Override
  public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
    if (!recording || StackWalker.getInstance().walk(frames -> frames.noneMatch(f -> f.getClassName().equals(FULFIL_OPS)))) {
      return;
    }
    String service = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
    String prefix = IAM_PREFIX.get(service);
    if (prefix == null) {
      throw new IllegalStateException("./fulfil-ops called " + service + ", which RecordedAwsCalls does not name for IAM");
    }
    Optional<String> queue = context.request().getValueForField("QueueUrl", String.class)
        .or(() -> context.request().getValueForField("SourceArn", String.class));
    String operation = prefix + ":" + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
    CALLS.add(new Call(BATCH_ACTION.getOrDefault(operation, operation), "sqs".equals(prefix) ? queue : Optional.empty()));
  }
}
