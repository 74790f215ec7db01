package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

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
import com.acme.fulfil.partner.WirePartner;
import com.acme.fulfil.partner.WirePartner.WireAnswer;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Orders;
import com.acme.fulfil.system.harness.PackagedArtifact;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The reproduction through the deployable zip under the runtime client (as LambdaRuntimeSmokeTest runs it):
 * the partner, on a raw socket, books every booking request it receives and answers it 201, and after every answer a
 * second complete answer follows on the same connection, a 429 with Retry-After, as a proxy that ran two answers
 * together sends. The same message is delivered five times. The function booked it twice before each proof was
 * bound to its request (the booking read the lookup's stray 429 as its answer and freed the order); now it books once.
 */
@OnSelectedBackend
class StrayAnswerTest {
  private static final String NAME = "stray";
  private static final Duration FUNCTION_TIMEOUT = Duration.ofSeconds(30);
  /**
   * Enough for the old code's second booking: the booking reads the lookup's stray 429, the next two lookups read the
   * booking's answers (a failure each), and the fourth reads the second lookup's empty list and books again.
   */
  private static final int DELIVERIES = 5;

  @TempDir
  Path workDir;

  @Test
  void aStrayAnswerAfterEveryAnswerBooksTheOrderOnce(AwsBackend backend) throws Exception {
    AwsConnection aws = backend.connection();
    TimingBudget budget = TimingBudget.builder().partnerWorstCase(Duration.ofSeconds(10))
        .partnerContractMaximum(Duration.ofSeconds(10)).partnerLookupTimeout(Duration.ofSeconds(5))
        .partnerDeadlineMargin(Duration.ofSeconds(2)).functionTimeout(FUNCTION_TIMEOUT).build();
    String orderId = Orders.newId("ORD-STRAY");
    try (SqsClient sqs = aws.sqsClient(); WirePartner partner = WirePartner.start()) {
      partner.answerWith(request -> WireAnswer.of((request.method().equals("GET")
          ? WirePartner.answer(200, request.requestId(), "{\"shipments\":[]}")
          : WirePartner.answer(201, request.requestId(), "{\"shipment_id\":\"SHP-" + partner.received().size()
              + "\",\"order_id\":\"" + orderId + "\",\"courier\":\"DPD\"}"))
          + WirePartner.answer(429, request.requestId(), "{\"error\":\"rate_limited\"}", "Retry-After: 1"), false));
      OrdersStack stack = new OrdersStack(sqs, aws.dynamoDbClient(), aws.secretsManagerClient());
      stack.putPartnerKey(NAME + "/partner-api-key", "stray-key");
      stack.createIdempotencyTable(NAME + "-idempotency");
      OrdersQueues queues = stack.createQueues(NAME + "-orders", new QueueSettings(budget.visibilityTimeout(),
          budget.sourceRetention(), Optional.of(new QueueSettings.Redrive(budget.maxReceiveCount(), budget.dlqRetention()))));
      sqs.sendMessage(r -> r.queueUrl(queues.source().url()).messageBody(Orders.body(orderId)));
      List<Message> received = sqs.receiveMessage(r -> r.queueUrl(queues.source().url()).maxNumberOfMessages(1)
          .waitTimeSeconds(1).messageSystemAttributeNames(MessageSystemAttributeName.ALL).messageAttributeNames("All"))
          .messages();
      assertThat(received).hasSize(1);

      FunctionConfiguration function = PackagedArtifact.configuration(aws, budget, NAME, partner.baseUrl(), FUNCTION_TIMEOUT,
          workDir);

      try (LocalLambda lambda = new LocalLambda(function, RuntimeHost.onDemand(workDir.resolve("runtime")),
          System.out::println, Map.of())) {
        for (int delivery = 1; delivery <= DELIVERIES; delivery++) {
          InvokeResult result = lambda.invoke(new SqsEventJson(queues.source()).toEvent(received));
          assertThat(result).as("delivery %d: the runtime's answer", delivery).isInstanceOf(InvokeResult.Response.class);
        }
      }
      assertThat(partner.received().stream().filter(request -> request.method().equals("POST")))
          .as("booking requests the partner received, and booked").hasSize(1);
    }
  }
}
