package com.acme.fulfil.handler;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.local.aws.EmbeddedAws;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueSettings;
import com.acme.fulfil.local.esm.FunctionIdentity;
import com.acme.fulfil.local.esm.LocalLambdaContext;
import com.acme.fulfil.sim.SecretsManagerEndpoint;
import com.acme.fulfil.sim.SimulatedPartner;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The real handler wired to real SDK clients against an emulated queue, table and secret, and the
 * simulated partner, which never deduplicates and records every booking it makes. Timings are short
 * so that timeouts happen in seconds: a 4 s function, a 1 s partner worst case, a 0.5 s margin, a lookup that may take
 * the rest (2.5 s), and a
 * partner whose contract lets it book up to 4 s after a request (held for 4.2 s with clock skew).
 */
final class HandlerHarness implements AutoCloseable {
  static final String TABLE = "fulfil-order-idempotency";
  static final String SECRET = "fulfil-order/partner-api-key";
  static final String FIRST_KEY = "partner-key-1";
  static final Duration FUNCTION_TIMEOUT = Duration.ofSeconds(4);
  static final Duration LATE_BOOKING_HOLD = Duration.ofMillis(4_200);
  /** Long enough that a failed record is certainly not redelivered by SQS while a test looks. */
  static final Duration VISIBILITY = Duration.ofSeconds(30);
  private static final String QUEUE = "orders-to-fulfil";
  private static final QueueSettings QUEUE_SETTINGS =
      new QueueSettings(VISIBILITY, Duration.ofDays(4), Optional.of(new QueueSettings.Redrive(5, Duration.ofDays(14))));

  final EmbeddedAws aws;
  final SimulatedPartner partner;
  final SecretsManagerEndpoint secrets;
  final SqsClient sqs;
  final OrdersQueues queues;
  /** The source of {@link #queues}, which the tests that run one after another share. */
  final SourceQueue queue;
  final FulfilOrderHandler handler;
  /** The function's environment, pointing at this harness. */
  final Map<String, String> environment;
  private final OrdersStack stack;
  private final AtomicInteger queuesOfTheirOwn = new AtomicInteger();
  static final String FUNCTION_NAME = "fulfil-order";
  private final FunctionIdentity identity = new FunctionIdentity(FUNCTION_NAME, EmbeddedAws.REGION);
  private final Map<String, Optional<String>> replacedProperties = new HashMap<>();

  HandlerHarness() {
    aws = EmbeddedAws.start();
    // The in-process handler builds its SDK clients from the default chains, which read these first;
    // put back what was there when the harness closes.
    aws.connection().sdkSystemProperties().forEach((name, value) ->
        replacedProperties.put(name, Optional.ofNullable(System.setProperty(name, value))));
    partner = SimulatedPartner.start(FIRST_KEY);
    secrets = aws.secretsManager();
    sqs = aws.connection().sqsClient();
    stack = new OrdersStack(sqs, aws.connection().dynamoDbClient(), aws.connection().secretsManagerClient());
    stack.putPartnerKey(SECRET, FIRST_KEY);
    queues = stack.createQueues(QUEUE, QUEUE_SETTINGS);
    queue = new SourceQueue(sqs, queues.source());
    stack.createIdempotencyTable(TABLE);

    Map<String, String> env = new HashMap<>(aws.connection().functionEnvironment());
    env.put("AWS_LAMBDA_FUNCTION_NAME", FUNCTION_NAME);
    env.putAll(FunctionEnvironment.resources(TABLE, partner.baseUrl().toString(), SECRET));
    env.put(FunctionEnvironment.PARTNER_DEADLINE_MARGIN_MS, "500");
    env.put(FunctionEnvironment.PARTNER_WORST_CASE_MS, "1000");
    // All the 4 s function leaves beside the worst case and the margin: a lookup answers in milliseconds on a quiet
    // machine, but twenty records at once on two busy cores took more than 1 s, and a lookup that times out turns a
    // test of a race into a retry. No test here needs a lookup to time out.
    env.put(FunctionEnvironment.PARTNER_LOOKUP_TIMEOUT_MS, "2500");
    env.put(FunctionEnvironment.PARTNER_LATE_BOOKING_HOLD_MS, Long.toString(LATE_BOOKING_HOLD.toMillis()));
    environment = Map.copyOf(env);
    handler = new FulfilOrderHandler(env);
  }

  static String newOrderId() {
    return "ORD-" + UUID.randomUUID().toString().substring(0, 13);
  }

  static String order(String orderId) {
    return order(orderId, "SW1Y 4JH", "GB");
  }

  static String order(String orderId, String postcode, String country) {
    return """
        {"order_id":"%s","placed_at":"2026-11-20T14:03:11Z","service":"standard",
         "ship_to":{"name":"Ada Lovelace","line1":"12 St James's Square","line2":null,"city":"London",
                    "postcode":"%s","country":"%s"},
         "parcels":[{"weight_grams":1200}]}""".formatted(orderId, postcode, country);
  }

  /**
   * A source queue, with its DLQ, that no other test reads or purges, for a test that runs beside others: the
   * function returns each record to the queue its ARN names.
   */
  SourceQueue queueOfItsOwn() {
    return new SourceQueue(sqs, stack.createQueues(QUEUE + "-" + queuesOfTheirOwn.incrementAndGet(), QUEUE_SETTINGS).source());
  }

  String send(String body) {
    return queue.send(body);
  }

  SQSEvent receive(int max) {
    return queue.receive(max);
  }

  SQSEvent sendAndReceive(String body) {
    return queue.sendAndReceive(body);
  }

  SQSBatchResponse invoke(SQSEvent event) {
    return invoke(event, FUNCTION_TIMEOUT);
  }

  SQSBatchResponse invoke(SQSEvent event, Duration remaining) {
    return handler.handleRequest(event, context(remaining));
  }

  Context context(Duration remaining) {
    return new LocalLambdaContext(identity, UUID.randomUUID().toString(), System.nanoTime() + remaining.toNanos());
  }

  /** Every key in the idempotency table. */
  List<String> recordKeys() {
    return aws.connection().dynamoDbClient().scanPaginator(r -> r.tableName(TABLE)).items().stream()
        .map(item -> item.get("id").s()).toList();
  }

  /**
   * The key an order's record has, worked out here rather than borrowed from the function: the
   * function's name, {@code .book#} and the id's MD5, as records written by Powertools had it.
   */
  static String recordKey(String orderId) {
    try {
      byte[] md5 = MessageDigest.getInstance("MD5").digest(orderId.getBytes(StandardCharsets.UTF_8));
      return FUNCTION_NAME + ".book#" + HexFormat.of().formatHex(md5);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static List<String> failedIds(SQSBatchResponse response) {
    return response.getBatchItemFailures().stream().map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).toList();
  }

  static List<String> messageIds(SQSEvent event) {
    return event.getRecords().stream().map(SQSEvent.SQSMessage::getMessageId).toList();
  }

  @Override
  public void close() {
    partner.close();
    sqs.close();
    aws.close();
    replacedProperties.forEach((name, previous) -> previous.ifPresentOrElse(
        value -> System.setProperty(name, value), () -> System.clearProperty(name)));
  }
}
