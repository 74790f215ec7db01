package com.acme.fulfil.system.harness;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueSettings;
import com.acme.fulfil.local.esm.SqsEventJson;
import com.acme.fulfil.local.lambda.FunctionConfiguration;
import com.acme.fulfil.local.runtime.PackagedFunction;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The stack around the deployable zip for a test that drives Lambda's runtime itself (LambdaRuntimeSmokeTest,
 * StrayAnswerTest): the partner's key in its secret, the table and the queues, all named after the test, and the
 * function configured for them as the stack configures it. The test receives what it hands the runtime.
 *
 * @param function the packaged function under {@code name}: its zip unpacked, the stack's environment for
 *     {@link #BUDGET}, the table {@code name-idempotency}, the secret {@code name/partner-api-key}, 512 MB
 */
public record RuntimeStandIn(SqsClient sqs, OrdersQueues queues, FunctionConfiguration function) {
  public static final Duration FUNCTION_TIMEOUT = Duration.ofSeconds(30);
  /**
   * The runtime's path is the point here, not the budget's: a 30 s function whose lookup may take 5 s books its order
   * even on a machine far slower than a quiet one (with the quick budget's 0.4 s lookup, a machine running other
   * builds turned the order into a retry).
   */
  public static final TimingBudget BUDGET = TimingBudget.builder().partnerWorstCase(Duration.ofSeconds(10))
      .partnerContractMaximum(Duration.ofSeconds(10)).partnerLookupTimeout(Duration.ofSeconds(5))
      .partnerDeadlineMargin(Duration.ofSeconds(2)).functionTimeout(FUNCTION_TIMEOUT).build();

  /** Lays out the stack for {@code name} on {@code aws}, for a partner at {@code partner} taking {@code apiKey}. */
  public static RuntimeStandIn start(AwsConnection aws, SqsClient sqs, String name, String apiKey, URI partner,
      Path workDir) {
    String table = name + "-idempotency";
    String secretId = name + "/partner-api-key";
    OrdersStack stack = new OrdersStack(sqs, aws.dynamoDbClient(), aws.secretsManagerClient());
    stack.putPartnerKey(secretId, apiKey);
    stack.createIdempotencyTable(table);
    OrdersQueues queues = stack.createQueues(name + "-orders", new QueueSettings(BUDGET.visibilityTimeout(),
        BUDGET.sourceRetention(), Optional.of(new QueueSettings.Redrive(BUDGET.maxReceiveCount(), BUDGET.dlqRetention()))));
    Map<String, String> environment = new HashMap<>(aws.functionEnvironment());
    environment.putAll(FunctionEnvironment.everyDeployment());
    environment.putAll(BUDGET.functionEnvironment());
    environment.putAll(FunctionEnvironment.resources(table, partner.toString(), secretId));
    Path taskRoot = PackagedFunction.unpack(PackagedArtifact.path(), workDir.resolve("task"));
    return new RuntimeStandIn(sqs, queues, new FunctionConfiguration(taskRoot, PackagedFunction.HANDLER,
        name + "-fulfil-order", aws.region(), 512, FUNCTION_TIMEOUT, environment));
  }

  public String send(String body) {
    return sqs.sendMessage(r -> r.queueUrl(queues.source().url()).messageBody(body)).messageId();
  }

  /** Up to {@code max} messages visible now, with every attribute the event source mapping passes on. */
  public List<Message> receive(int max) {
    return sqs.receiveMessage(r -> r.queueUrl(queues.source().url()).maxNumberOfMessages(max).waitTimeSeconds(1)
        .messageSystemAttributeNames(MessageSystemAttributeName.ALL).messageAttributeNames("All")).messages();
  }

  /** The JSON event the event source mapping would send the function for {@code messages}. */
  public byte[] event(List<Message> messages) {
    return new SqsEventJson(queues.source()).toEvent(messages);
  }
}
