package com.acme.fulfil.bench;

import com.acme.fulfil.local.aws.EmbeddedAws;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.sim.SimulatedPartner;
import com.acme.fulfil.timing.FunctionEnvironment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * What the function talks to, in the benchmark's own process so that a child JVM pays for nothing but
 * the function: DynamoDB Local over HTTP, the Secrets Manager simulator, ElasticMQ, and a partner that
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
   * Times {@code measured} pairs of the idempotency store's writes, after {@code warmUp} untimed ones:
   * a conditional PutItem that claims a new key and the UpdateItem that completes it, in milliseconds.
   */
  List<Double> idempotencyWrites(int warmUp, int measured) {
    List<Double> millis = new ArrayList<>();
    try (DynamoDbClient dynamoDb = aws.connection().dynamoDbClient()) {
      for (int i = 0; i < warmUp + measured; i++) {
        String key = "floor-" + UUID.randomUUID();
        long start = System.nanoTime();
        dynamoDb.putItem(r -> r.tableName(TABLE)
            .item(Map.of("id", AttributeValue.fromS(key), "status", AttributeValue.fromS("INPROGRESS"),
                "expiration", AttributeValue.fromN("9999999999")))
            .conditionExpression("attribute_not_exists(#id)")
            .expressionAttributeNames(Map.of("#id", "id"))
            .returnValues(ReturnValue.ALL_OLD));
        dynamoDb.updateItem(r -> r.tableName(TABLE).key(Map.of("id", AttributeValue.fromS(key)))
            .updateExpression("SET #status = :status")
            .expressionAttributeNames(Map.of("#status", "status"))
            .expressionAttributeValues(Map.of(":status", AttributeValue.fromS("COMPLETED"))));
        if (i >= warmUp) {
          millis.add((System.nanoTime() - start) / 1e6);
        }
      }
    }
    return millis;
  }

  SimulatedPartner partner() {
    return partner;
  }

  /** The function's whole environment, as the CDK stack would write it, pointing at this process. */
  Map<String, String> functionEnvironment() {
    Map<String, String> env = new HashMap<>(aws.connection().functionEnvironment());
    env.put(FunctionEnvironment.IDEMPOTENCY_TABLE_NAME, TABLE);
    env.put(FunctionEnvironment.PARTNER_BASE_URL, partner.baseUrl().toString());
    env.put(FunctionEnvironment.PARTNER_API_KEY_SECRET_ID, SECRET);
    env.put("POWERTOOLS_SERVICE_NAME", "fulfil-order");
    env.put("POWERTOOLS_METRICS_NAMESPACE", "FulfilOrder");
    return env;
  }

  @Override
  public void close() {
    partner.close();
    aws.close();
  }
}
