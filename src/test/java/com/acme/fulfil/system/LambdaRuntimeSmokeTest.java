package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueSettings;
import com.acme.fulfil.local.esm.SqsEventJson;
import com.acme.fulfil.local.lambda.FunctionConfiguration;
import com.acme.fulfil.local.lambda.InvokeResult;
import com.acme.fulfil.local.lambda.LocalLambda;
import com.acme.fulfil.local.lambda.RuntimeHost;
import com.acme.fulfil.sim.SimulatedPartner;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Orders;
import com.acme.fulfil.system.harness.PackagedArtifact;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The deployable zip as Lambda runs it: unpacked into a task root, started under the runtime interface
 * client, handed the JSON event the SQS event source mapping sends, answering with the partial batch
 * response the mapping reads. Nothing here constructs the handler: the runtime's serializer and class
 * path are the ones in the way, and with SnapStart's init the runtime's CRaC context runs every
 * priming hook on the class path (ours and Powertools metrics') before the first event.
 */
@OnSelectedBackend
class LambdaRuntimeSmokeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String NAME = "smoke";
  private static final Duration FUNCTION_TIMEOUT = Duration.ofSeconds(30);

  @TempDir
  Path workDir;

  @Test
  void packagedZipUnderTheRuntimeClientBooksAnOrderFromLambdasEventAndReportsTheBadRecord(AwsBackend backend) throws Exception {
    AwsConnection aws = backend.connection();
    // The runtime's path is the point here, not the budget's: a 30 s function whose lookup may take 5 s
    // books its order even on a machine far slower than a quiet one (with the quick budget's 0.4 s
    // lookup, a machine running other builds turned the order into a retry).
    TimingBudget budget = TimingBudget.builder().partnerWorstCase(Duration.ofSeconds(10))
        .partnerContractMaximum(Duration.ofSeconds(10)).partnerLookupTimeout(Duration.ofSeconds(5))
        .partnerDeadlineMargin(Duration.ofSeconds(2)).functionTimeout(FUNCTION_TIMEOUT).build();
    try (SqsClient sqs = aws.sqsClient();
        SimulatedPartner partner = SimulatedPartner.builder().apiKey("smoke-key").start()) {
      OrdersStack stack = new OrdersStack(sqs, aws.dynamoDbClient(), aws.secretsManagerClient());
      stack.putPartnerKey(NAME + "/partner-api-key", partner.apiKey());
      stack.createIdempotencyTable(NAME + "-idempotency");
      OrdersQueues queues = stack.createQueues(NAME + "-orders", new QueueSettings(budget.visibilityTimeout(),
          budget.sourceRetention(), Optional.of(new QueueSettings.Redrive(budget.maxReceiveCount(), budget.dlqRetention()))));

      String orderId = Orders.newId("ORD-SMOKE");
      sqs.sendMessage(r -> r.queueUrl(queues.source().url()).messageBody(Orders.body(orderId)));
      String badMessageId = sqs.sendMessage(r -> r.queueUrl(queues.source().url()).messageBody("{\"order_id\":")).messageId();
      List<Message> received = sqs.receiveMessage(r -> r.queueUrl(queues.source().url()).maxNumberOfMessages(10)
          .waitTimeSeconds(1).messageSystemAttributeNames(MessageSystemAttributeName.ALL).messageAttributeNames("All"))
          .messages();
      assertThat(received).hasSize(2);

      FunctionConfiguration function = PackagedArtifact.configuration(aws, budget, NAME, partner.baseUrl(), FUNCTION_TIMEOUT,
          workDir);

      // SnapStart's init, as the stack deploys it: the runtime runs every registered priming hook first.
      List<String> output = new CopyOnWriteArrayList<>();
      try (LocalLambda lambda = new LocalLambda(function, RuntimeHost.snapStart(workDir.resolve("runtime")),
          line -> {
            System.out.println(line);
            output.add(line);
          }, Map.of())) {
        InvokeResult result = lambda.invoke(new SqsEventJson(queues.source()).toEvent(received));

        assertThat(result).as("the runtime's answer").isInstanceOf(InvokeResult.Response.class);
        JsonNode response = JSON.readTree(((InvokeResult.Response) result).payload());
        assertThat(response.path("batchItemFailures").findValuesAsText("itemIdentifier")).containsExactly(badMessageId);
        assertThat(partner.bookingsFor(orderId)).hasSize(1);
        // The JVM itself says so, as it would in the function's log group: it runs the stack's options.
        assertThat(output).contains("Picked up JAVA_TOOL_OPTIONS: " + FunctionEnvironment.C1_ONLY);
      }
    }
  }
}
