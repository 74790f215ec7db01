package com.acme.fulfil.local.scenario;

import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.esm.FunctionIdentity;
import com.acme.fulfil.local.esm.LocalLambdaContext;
import com.acme.fulfil.local.esm.MappingListener;
import com.acme.fulfil.local.esm.SqsEventSourceMapping;
import com.acme.fulfil.local.esm.SqsEventTranslator;
import com.acme.fulfil.local.runtime.PackagedFunction;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.sim.SimulatedPartner;
import com.acme.fulfil.timing.FunctionEnvironment;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * One configuration of fulfil-order set up on an AWS backend as a deploy would leave it: the partner
 * key's secret, the queues, the idempotency table, and the function (this project's from its
 * deployable zip, or the incident's) behind its own event source mapping, wired to {@code partner}.
 * The local run and the system tests stand on it; what they observe and measure is their own.
 *
 * <p>Names come from the deployment's name, so several deployments can share one backend.
 */
public final class LocalDeployment implements AutoCloseable {
  private static final int WARM_UP_ORDERS = 4;
  private static final long WARM_UP_SEED = 1;

  private final Deployment deployment;
  private final OrdersQueues queues;
  private final String secretId;
  private final String table;
  private final SqsEventSourceMapping mapping;

  /**
   * Creates the resources and loads the function; the mapping polls only after {@link #start()}.
   *
   * @param mappingSqs the client the event source mapping polls and deletes with
   * @param environmentOverrides put over the function's environment last (an endpoint a test routes
   *     through a proxy, say)
   */
  public LocalDeployment(Deployment deployment, AwsConnection aws, OrdersStack stack, SqsClient mappingSqs,
      SimulatedPartner partner, MappingListener listener, Map<String, String> environmentOverrides) {
    this.deployment = deployment;
    this.secretId = deployment.name() + "/partner-api-key";
    this.table = deployment.name() + "-fulfil-order-idempotency";
    stack.putPartnerKey(secretId, partner.apiKey());
    this.queues = stack.createQueues(deployment.queueName(), deployment.queue());
    FunctionIdentity identity = new FunctionIdentity(deployment.name() + "-fulfil-order", aws.region());
    RequestHandler<SQSEvent, SQSBatchResponse> function = switch (deployment.function()) {
      case Deployment.FunctionCode.Incident incident -> new IncidentHandler(partner.baseUrl(), partner.apiKey());
      case Deployment.FunctionCode.Packaged packaged -> {
        stack.createIdempotencyTable(table);
        Map<String, String> environment = new HashMap<>(aws.functionEnvironment());
        environment.putAll(deployment.timingEnvironment());
        environment.put(FunctionEnvironment.IDEMPOTENCY_TABLE_NAME, table);
        environment.put(FunctionEnvironment.PARTNER_BASE_URL, partner.baseUrl().toString());
        environment.put(FunctionEnvironment.PARTNER_API_KEY_SECRET_ID, secretId);
        environment.putAll(environmentOverrides);
        RequestHandler<SQSEvent, SQSBatchResponse> packagedFunction = PackagedFunction.load(packaged.artifact(), environment);
        warmUp(packagedFunction, identity, partner);
        yield packagedFunction;
      }
    };
    this.mapping = new SqsEventSourceMapping(mappingSqs, queues.source(), deployment.mapping(), identity, function, listener);
  }

  /**
   * Primes the function before the run, as SnapStart's priming does in AWS. At the 1/30 scale the
   * slack between the function timeout and the partner's worst case plus margin is 333 ms (10 s in
   * AWS): less than a cold JVM spends loading the SDK, Powertools and OkHttp in its first invocations,
   * which would then rightly refuse to start bookings they could not finish. The warm-up orders are
   * booked at once (scripted) and then wiped from the partner's ledger; they never touch the queue.
   */
  private void warmUp(RequestHandler<SQSEvent, SQSBatchResponse> function, FunctionIdentity identity,
      SimulatedPartner partner) {
    List<Message> messages = new ArrayList<>();
    for (ScenarioOrder order : new OrderStream().generate("ORD-WARMUP-", WARM_UP_ORDERS, 0, 0, WARM_UP_SEED)) {
      partner.script().forOrder(order.orderId(), new Reaction.BookAfter(Duration.ZERO));
      messages.add(Message.builder()
          .messageId(UUID.randomUUID().toString())
          .receiptHandle("warm-up-" + order.orderId())
          .body(order.body())
          .attributes(Map.of(
              MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "1",
              MessageSystemAttributeName.SENT_TIMESTAMP, Long.toString(System.currentTimeMillis())))
          .build());
    }
    long deadline = System.nanoTime() + deployment.mapping().functionTimeout().toNanos();
    function.handleRequest(new SqsEventTranslator(queues.source()).toEvent(messages),
        new LocalLambdaContext(identity, "warm-up", deadline));
    partner.reset();
  }

  public Deployment deployment() {
    return deployment;
  }

  public OrdersQueues queues() {
    return queues;
  }

  public String secretId() {
    return secretId;
  }

  /** The idempotency table, for a configuration whose function has one. */
  public Optional<String> table() {
    return deployment.function() instanceof Deployment.FunctionCode.Packaged ? Optional.of(table) : Optional.empty();
  }

  /** The event source mapping starts polling. */
  public void start() {
    mapping.start();
  }

  /** Stops polling and waits for the invocations still running (at most the function timeout). */
  @Override
  public void close() {
    mapping.close();
  }
}
