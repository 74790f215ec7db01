package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.lambda.InvokeResult;
import com.acme.fulfil.local.lambda.LocalLambda;
import com.acme.fulfil.local.lambda.RuntimeHost;
import com.acme.fulfil.partner.WirePartner;
import com.acme.fulfil.partner.WirePartner.WireAnswer;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Orders;
import com.acme.fulfil.system.harness.RuntimeStandIn;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

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
  /**
   * Enough for the old code's second booking: the booking reads the lookup's stray 429, the next two lookups read the
   * booking's answers (a failure each), and the fourth reads the second lookup's empty list and books again.
   */
  private static final int DELIVERIES = 5;

  @TempDir
  Path workDir;

  @Test
  void aStrayAnswerAfterEveryAnswerBooksTheOrderOnce(AwsBackend backend) throws Exception {
    String orderId = Orders.newId("ORD-STRAY");
    try (SqsClient sqs = backend.connection().sqsClient(); WirePartner partner = WirePartner.start()) {
      partner.answerWith(request -> WireAnswer.of((request.method().equals("GET")
          ? WirePartner.answer(200, request.requestId(), "{\"shipments\":[]}")
          : WirePartner.answer(201, request.requestId(), "{\"shipment_id\":\"SHP-" + partner.received().size()
              + "\",\"order_id\":\"" + orderId + "\",\"courier\":\"DPD\"}"))
          + WirePartner.answer(429, request.requestId(), "{\"error\":\"rate_limited\"}", "Retry-After: 1"), false));
      RuntimeStandIn stack = RuntimeStandIn.start(backend.connection(), sqs, NAME, "stray-key", partner.baseUrl(), workDir);
      stack.send(Orders.body(orderId));
      List<Message> received = stack.receive(1);
      assertThat(received).hasSize(1);

      try (LocalLambda lambda = new LocalLambda(stack.function(), RuntimeHost.onDemand(workDir.resolve("runtime")),
          System.out::println, Map.of())) {
        for (int delivery = 1; delivery <= DELIVERIES; delivery++) {
          InvokeResult result = lambda.invoke(stack.event(received));
          assertThat(result).as("delivery %d: the runtime's answer", delivery).isInstanceOf(InvokeResult.Response.class);
        }
      }
      assertThat(partner.received().stream().filter(request -> request.method().equals("POST")))
          .as("booking requests the partner received, and booked").hasSize(1);
    }
  }
}
