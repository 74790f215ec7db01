package com.acme.fulfil.queue;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * What reaches SQS when the function sends a message to the DLQ in Lambda: the SDK has already put the
 * invocation's trace header on the request (played here by an interceptor ahead of ours, where the SDK's own
 * runs), and SQS would keep it as the message's AWSTraceHeader. Only the send loses it: every other call keeps it.
 */
class ProducersTraceOnlyTest {
  private static final String INVOCATIONS_TRACE = "Root=1-6747c0de-0123456789abcdef01234567;Parent=53995c3f42cd8ad8;Sampled=0";

  @Test
  void theInvocationsTraceHeaderIsTakenOffTheDlqSendAndLeftOnOtherCalls() throws Exception {
    Map<String, String> seen = new ConcurrentHashMap<>();
    HttpServer sqs = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    sqs.createContext("/", exchange -> {
      String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
      seen.put(target, String.valueOf(exchange.getRequestHeaders().getFirst(ProducersTraceOnly.TRACE_HEADER)));
      // SendMessage's answer carries the body's MD5, which the SDK checks: this is "{}"'s.
      byte[] answer = (target.endsWith("SendMessage") ? "{\"MessageId\":\"m-1\",\"MD5OfMessageBody\":\"99914b932bd37a50b983c5e7c90ae93b\"}" : "{}")
          .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
      exchange.sendResponseHeaders(200, answer.length);
      exchange.getResponseBody().write(answer);
      exchange.close();
    });
    sqs.start();
    try (SqsClient client = SqsClient.builder().httpClient(UrlConnectionHttpClient.create())
        .endpointOverride(URI.create("http://127.0.0.1:" + sqs.getAddress().getPort())).region(Region.EU_WEST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
        .overrideConfiguration(o -> o.executionInterceptors(List.of(new LambdasTraceHeader(), new ProducersTraceOnly())))
        .build()) {
      client.sendMessage(r -> r.queueUrl("http://127.0.0.1/000000000000/orders-to-fulfil-dlq").messageBody("{}"));
      client.changeMessageVisibility(r -> r.queueUrl("http://127.0.0.1/000000000000/orders-to-fulfil")
          .receiptHandle("h").visibilityTimeout(5));
    } finally {
      sqs.stop(0);
    }
    assertThat(seen).containsEntry("AmazonSQS.SendMessage", "null")
        .containsEntry("AmazonSQS.ChangeMessageVisibility", INVOCATIONS_TRACE);
  }

  /** Lambda's SDK in an invocation: every request leaves with the invocation's trace header. */
  private static final class LambdasTraceHeader implements ExecutionInterceptor {
    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes executionAttributes) {
      return context.httpRequest().copy(request -> request.putHeader(ProducersTraceOnly.TRACE_HEADER, INVOCATIONS_TRACE));
    }
  }
}
