package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.lambda.InvokeResult;
import com.acme.fulfil.local.lambda.LocalLambda;
import com.acme.fulfil.local.lambda.RuntimeHost;
import com.acme.fulfil.sim.SimulatedPartner;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Orders;
import com.acme.fulfil.system.harness.RuntimeStandIn;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

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

  @TempDir
  Path workDir;

  @Test
  void packagedZipUnderTheRuntimeClientBooksAnOrderFromLambdasEventAndReportsTheBadRecord(AwsBackend backend) throws Exception {
    try (SqsClient sqs = backend.connection().sqsClient();
        SimulatedPartner partner = SimulatedPartner.builder().apiKey("smoke-key").start()) {
      RuntimeStandIn stack = RuntimeStandIn.start(backend.connection(), sqs, NAME, partner.apiKey(), partner.baseUrl(), workDir);
      String orderId = Orders.newId("ORD-SMOKE");
      stack.send(Orders.body(orderId));
      String badMessageId = stack.send("{\"order_id\":");
      List<Message> received = stack.receive(10);
      assertThat(received).hasSize(2);

      // SnapStart's init, as the stack deploys it: the runtime runs every registered priming hook first.
      List<String> output = new CopyOnWriteArrayList<>();
      try (LocalLambda lambda = new LocalLambda(stack.function(), RuntimeHost.snapStart(workDir.resolve("runtime")),
          line -> {
            System.out.println(line);
            output.add(line);
          }, Map.of())) {
        InvokeResult result = lambda.invoke(stack.event(received));

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
