package com.acme.fulfil.bench;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.local.aws.EmbeddedAws;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.sim.SimulatedPartner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * What the function talks to, in the benchmark's own process so that a child JVM pays for nothing but
 * the function: the DynamoDB emulator over HTTP, the Secrets Manager simulator, ElasticMQ, and a partner that
 * answers at once.
 */
final class BenchmarkStack implements AutoCloseable {
  static final String TABLE = "fulfil-order-idempotency";
  static final String SECRET = "fulfil-order/partner-api-key";
  private static final String KEY = "partner-key-benchmark";

  private final EmbeddedAws aws;
  private final SimulatedPartner partner;

  private BenchmarkStack(EmbeddedAws aws, SimulatedPartner partner) {
    this.aws = aws;
    this.partner = partner;
  }

  static BenchmarkStack start() {
    EmbeddedAws aws = EmbeddedAws.start();
    SimulatedPartner partner = SimulatedPartner.start(KEY);
    try (SqsClient sqs = aws.connection().sqsClient();
        DynamoDbClient dynamoDb = aws.connection().dynamoDbClient();
        SecretsManagerClient secrets = aws.connection().secretsManagerClient()) {
      OrdersStack stack = new OrdersStack(sqs, dynamoDb, secrets);
      stack.putPartnerKey(SECRET, KEY);
      stack.createIdempotencyTable(TABLE);
    }
    return new BenchmarkStack(aws, partner);
  }

  /**
   * Times {@code measured} pairs of the idempotency store's writes, after {@code warmUp} untimed ones, in
   * milliseconds: a conditional PutItem that claims a new key and the UpdateItem that completes it, sent
   * as bare HTTP requests from this JVM with no SDK in the way. What the emulator itself takes for a
   * record on this machine, and so the floor under the function's number.
   */
  List<Double> idempotencyWrites(int warmUp, int measured) {
    URI endpoint = aws.connection().dynamoDbEndpoint().orElseThrow();
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    List<Double> millis = new ArrayList<>();
    for (int i = 0; i < warmUp + measured; i++) {
      String key = "floor-" + UUID.randomUUID();
      long start = System.nanoTime();
      dynamoDb(http, endpoint, "PutItem", """
          {"TableName":"%s","Item":{"id":{"S":"%s"},"status":{"S":"INPROGRESS"},"expiration":{"N":"9999999999"}},
           "ConditionExpression":"attribute_not_exists(#id)","ExpressionAttributeNames":{"#id":"id"},
           "ReturnValues":"ALL_OLD"}""".formatted(TABLE, key));
      dynamoDb(http, endpoint, "UpdateItem", """
          {"TableName":"%s","Key":{"id":{"S":"%s"}},"UpdateExpression":"SET #status = :status",
           "ExpressionAttributeNames":{"#status":"status"},"ExpressionAttributeValues":{":status":{"S":"COMPLETED"}}}"""
          .formatted(TABLE, key));
      if (i >= warmUp) {
        millis.add((System.nanoTime() - start) / 1e6);
      }
    }
    return millis;
  }

  private static void dynamoDb(HttpClient http, URI endpoint, String operation, String body) {
    HttpRequest request = HttpRequest.newBuilder(endpoint)
        .header("Content-Type", "application/x-amz-json-1.0")
        .header("X-Amz-Target", "DynamoDB_20120810." + operation)
        // The emulator wants the header, as DynamoDB does, but checks no signature.
        .header("Authorization", "AWS4-HMAC-SHA256 Credential=benchmark/20261121/us-east-1/dynamodb/aws4_request, "
            + "SignedHeaders=host;x-amz-date, Signature=0")
        .header("X-Amz-Date", "20261121T000000Z")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(operation + " answered " + response.statusCode() + ": " + response.body());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  SimulatedPartner partner() {
    return partner;
  }

  /**
   * The function's whole environment, as the CDK stack would write it and Lambda would add to it,
   * pointing at this process.
   */
  Map<String, String> functionEnvironment() {
    Map<String, String> env = new HashMap<>(aws.connection().functionEnvironment());
    env.put("AWS_LAMBDA_FUNCTION_NAME", "fulfil-order");
    env.putAll(FunctionEnvironment.resources(TABLE, partner.baseUrl().toString(), SECRET));
    env.put(FunctionEnvironment.SERVICE_NAME, MetricNames.SERVICE);
    env.put(FunctionEnvironment.METRICS_NAMESPACE, MetricNames.NAMESPACE);
    return env;
  }

  @Override
  public void close() {
    partner.close();
    aws.close();
  }
}
