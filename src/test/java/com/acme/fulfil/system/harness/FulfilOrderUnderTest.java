package com.acme.fulfil.system.harness;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueDepth;
import com.acme.fulfil.local.aws.QueueSettings;
import com.acme.fulfil.local.scenario.LocalDeployment;
import com.acme.fulfil.sim.SimulatedPartner;
import com.acme.fulfil.local.scenario.RunbookEnvironment;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assumptions;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * fulfil-order deployed for a test: the packaged function behind the local event source mapping on
 * the shared backend ({@link LocalDeployment}), its own simulated partner, and what a test needs to
 * drive and judge it: send orders as the checkout service does, read the partner's ledger, the
 * queues and the idempotency table, and break the partner, DynamoDB or Secrets Manager on purpose.
 */
public final class FulfilOrderUnderTest implements AutoCloseable {
  /** How quickly an idle poller notices a message (Lambda's 20 s long poll, shortened). */
  public static final Duration POLL_WAIT = Duration.ofSeconds(1);
  /** The partner's key at the start; a test that rotates it picks the next. */
  public static final String FIRST_KEY = "partner-key-1";

  private final SqsClient sqs;
  private final DynamoDbClient dynamoDb;
  private final SecretsManagerClient secrets;
  private final OrdersStack stack;
  private final SimulatedPartner partner;
  private final Optional<FaultyEndpoint> dynamoDbEndpoint;
  private final Optional<FaultyEndpoint> secretsManagerEndpoint;
  private final Optional<RedeliveringSqs> redelivery;
  private final InvocationLog invocations = new InvocationLog();
  private final LocalDeployment deployment;
  private final AwsConnection aws;
  private final TimingBudget budget;

  private FulfilOrderUnderTest(Builder builder) {
    aws = builder.backend.connection();
    this.budget = builder.budget;
    this.sqs = aws.sqsClient();
    this.dynamoDb = aws.dynamoDbClient();
    this.secrets = aws.secretsManagerClient();
    this.stack = new OrdersStack(sqs, dynamoDb, secrets);
    this.dynamoDbEndpoint = builder.faultyDynamoDb ? Optional.of(inFrontOf(aws.dynamoDbEndpoint(), "DynamoDB")) : Optional.empty();
    this.secretsManagerEndpoint = builder.faultySecretsManager
        ? Optional.of(inFrontOf(aws.secretsManagerEndpoint(), "Secrets Manager")) : Optional.empty();
    SimulatedPartner.Builder partnerBuilder = SimulatedPartner.builder().apiKey(FIRST_KEY);
    builder.partner.accept(partnerBuilder);
    this.partner = partnerBuilder.start();
    Map<String, String> endpoints = new HashMap<>();
    dynamoDbEndpoint.ifPresent(proxy -> endpoints.put(AwsConnection.ENDPOINT_DYNAMODB, proxy.uri().toString()));
    secretsManagerEndpoint.ifPresent(proxy -> endpoints.put(AwsConnection.ENDPOINT_SECRETS_MANAGER, proxy.uri().toString()));
    this.redelivery = builder.redeliverNow.map(pick -> new RedeliveringSqs(sqs, pick));
    Deployment configuration = builder.deployment.orElseGet(() -> Deployment.fulfilOrder(builder.name,
        builder.name + "-orders", builder.budget, builder.maxConcurrency, POLL_WAIT, PackagedArtifact.path()));
    this.deployment = new LocalDeployment(configuration, aws, stack, redelivery.map(SqsClient.class::cast).orElse(sqs),
        partner, invocations, endpoints);
    deployment.start();
  }

  /** A deployment named {@code name} (its queues, table and secret are named after it) on {@code backend}. */
  public static Builder on(AwsBackend backend, String name) {
    return new Builder(backend, name);
  }

  private static FaultyEndpoint inFrontOf(Optional<URI> endpoint, String service) {
    Assumptions.assumeTrue(endpoint.isPresent(),
        "this test breaks " + service + " through a proxy in front of its endpoint, and this backend has none");
    return FaultyEndpoint.inFrontOf(endpoint.orElseThrow());
  }

  /** Sends {@code body} as the checkout service does; returns the message id. */
  public String send(String body) {
    return send(body, Map.of());
  }

  public String send(String body, Map<String, MessageAttributeValue> attributes) {
    return sqs.sendMessage(r -> r.queueUrl(queues().source().url()).messageBody(body).messageAttributes(attributes))
        .messageId();
  }

  /** Sends every body, ten to a request; returns the message ids in order. */
  public List<String> sendAll(List<String> bodies) {
    List<String> ids = new ArrayList<>(bodies.size());
    for (int from = 0; from < bodies.size(); from += 10) {
      List<String> chunk = bodies.subList(from, Math.min(bodies.size(), from + 10));
      List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
      for (int i = 0; i < chunk.size(); i++) {
        entries.add(SendMessageBatchRequestEntry.builder().id(Integer.toString(i)).messageBody(chunk.get(i)).build());
      }
      var response = sqs.sendMessageBatch(r -> r.queueUrl(queues().source().url()).entries(entries));
      if (!response.failed().isEmpty()) {
        throw new IllegalStateException("SQS refused to take orders: " + response.failed());
      }
      String[] byEntry = new String[chunk.size()];
      response.successful().forEach(ok -> byEntry[Integer.parseInt(ok.id())] = ok.messageId());
      ids.addAll(List.of(byEntry));
    }
    return ids;
  }

  /** The timing budget deployed, in local time (a deployment given whole ignores it). */
  public TimingBudget budget() {
    return budget;
  }

  public SimulatedPartner partner() {
    return partner;
  }

  public InvocationLog invocations() {
    return invocations;
  }

  public OrdersQueues queues() {
    return deployment.queues();
  }

  public SqsClient sqs() {
    return sqs;
  }

  /** What the source queue holds: visible, and in flight. */
  public QueueDepth queued() {
    return QueueDepth.of(sqs, queues().source());
  }

  public QueuePeek deadLetters() {
    return new QueuePeek(sqs, queues().deadLetter().orElseThrow());
  }

  public IdempotencyRecords records() {
    return new IdempotencyRecords(dynamoDb, deployment.table().orElseThrow());
  }

  /** The variables ./run-local --serve prints for on-call's commands, for this deployment. */
  public RunbookEnvironment runbookEnvironment() {
    return new RunbookEnvironment(aws, queues().source(), queues().deadLetter().orElseThrow(),
        deployment.table().orElseThrow(), deployment.secretId(), partner.baseUrl(), deployment.functionName(),
        deployment.deployment().budget().orElseThrow(), deployment.deployment().mapping().maxConcurrency());
  }

  /** The record of one order, with its story. */
  public Optional<IdempotencyRecords.Record> record(String orderId) {
    return records().of(deployment.functionName(), orderId);
  }

  /** Removes the order's record, as its TTL or a restore from an older backup would. */
  public void forgetRecord(String orderId) {
    records().forget(deployment.functionName(), orderId);
  }

  /** The proxy between the function and DynamoDB; only with {@link Builder#faultyDynamoDb()}. */
  public FaultyEndpoint dynamoDb() {
    return dynamoDbEndpoint.orElseThrow(() -> new IllegalStateException("deployed without faultyDynamoDb()"));
  }

  /** The proxy between the function and Secrets Manager; only with {@link Builder#faultySecretsManager()}. */
  public FaultyEndpoint secretsManager() {
    return secretsManagerEndpoint.orElseThrow(() -> new IllegalStateException("deployed without faultySecretsManager()"));
  }

  /** Deliveries the queue was made to repeat; only with {@link Builder#redeliverNow(Predicate)}. */
  public int injectedRedeliveries() {
    return redelivery.map(RedeliveringSqs::injected).orElse(0);
  }

  /** Writes a new partner key into the function's secret, as the runbook's rotation step does. */
  public void putPartnerKey(String key) {
    stack.putPartnerKey(deployment.secretId(), key);
  }

  /** {@code StartMessageMoveTask}: everything in the DLQ back to the source queue, as on-call redrives it. */
  public void redrive() {
    sqs.startMessageMoveTask(r -> r.sourceArn(queues().deadLetter().orElseThrow().arn())
        .destinationArn(queues().source().arn()));
  }

  /** Waits until every message was deleted by the mapping (after the function succeeded with it). */
  public boolean awaitDeleted(Collection<String> messageIds, Duration timeout) {
    return Await.until(timeout, () -> invocations.deletedAll(messageIds));
  }

  /**
   * Waits until every message was deleted, or until none can still be: a message is received at most the redrive
   * policy's receives, each ending at the latest one visibility timeout later (every try killed), and is then in the
   * DLQ. A loaded machine can turn any try into a retry; this waits for the outcome itself, not a guess at its time.
   */
  public boolean awaitDeletedWithinTheirLives(Collection<String> messageIds) {
    QueueSettings settings = queues().settings();
    int receives = settings.redrive().map(QueueSettings.Redrive::maxReceiveCount).orElseThrow(
        () -> new IllegalStateException("a queue without a redrive policy keeps a failing message for ever"));
    return Await.until(settings.visibilityTimeout().multipliedBy(receives + 1L), () -> invocations.deletedAll(messageIds)
        || messageIds.stream().anyMatch(deadLetters().messages()::containsKey));
  }

  /** Waits until every message is in the DLQ. */
  public boolean awaitDeadLettered(Collection<String> messageIds, Duration timeout) {
    return Await.until(timeout, () -> deadLetters().messages().keySet().containsAll(messageIds));
  }

  /** Stops the mapping (letting running invocations finish), the partner and the proxies. */
  @Override
  public void close() {
    deployment.close();
    partner.close();
    dynamoDbEndpoint.ifPresent(FaultyEndpoint::close);
    secretsManagerEndpoint.ifPresent(FaultyEndpoint::close);
    sqs.close();
    dynamoDb.close();
    secrets.close();
  }

  public static final class Builder {
    private final AwsBackend backend;
    private final String name;
    private TimingBudget budget = TestBudgets.quick();
    private int maxConcurrency = 2;
    private Consumer<SimulatedPartner.Builder> partner = p -> { };
    private boolean faultyDynamoDb;
    private boolean faultySecretsManager;
    private Optional<Predicate<Message>> redeliverNow = Optional.empty();
    private Optional<Deployment> deployment = Optional.empty();

    private Builder(AwsBackend backend, String name) {
      this.backend = backend;
      this.name = name;
    }

    /** The timing budget, already in local time; default {@link TestBudgets#quick()}. */
    public Builder budget(TimingBudget budget) {
      this.budget = budget;
      return this;
    }

    /**
     * The event source mapping's maximum concurrency; default 2, the least AWS allows and enough for two
     * tries of one order at once. Each environment here is a whole JVM start, about 2 s of a core: a test
     * that needs more says so.
     */
    public Builder maxConcurrency(int maxConcurrency) {
      this.maxConcurrency = maxConcurrency;
      return this;
    }

    /** Settings for the simulated partner beyond its first key (latency, time scale, seed). */
    public Builder partner(Consumer<SimulatedPartner.Builder> partner) {
      this.partner = partner;
      return this;
    }

    /** Routes the function's DynamoDB calls through a {@link FaultyEndpoint}. */
    public Builder faultyDynamoDb() {
      this.faultyDynamoDb = true;
      return this;
    }

    /** Routes the function's Secrets Manager calls through a {@link FaultyEndpoint}. */
    public Builder faultySecretsManager() {
      this.faultySecretsManager = true;
      return this;
    }

    /** Makes the queue deliver again at once every received message {@code pick} chooses. */
    public Builder redeliverNow(Predicate<Message> pick) {
      this.redeliverNow = Optional.of(pick);
      return this;
    }

    /** Deploys this configuration (the incident's, say) instead of one built from the budget. */
    public Builder deployment(Deployment deployment) {
      this.deployment = Optional.of(deployment);
      return this;
    }

    public FulfilOrderUnderTest start() {
      return new FulfilOrderUnderTest(this);
    }
  }
}
