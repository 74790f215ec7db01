package com.acme.fulfil.local.scenario;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.esm.FunctionIdentity;
import com.acme.fulfil.local.esm.MappingListener;
import com.acme.fulfil.local.esm.SqsEventSourceMapping;
import com.acme.fulfil.local.lambda.FunctionConfiguration;
import com.acme.fulfil.local.lambda.InProcessFunction;
import com.acme.fulfil.local.lambda.LambdaFunction;
import com.acme.fulfil.local.lambda.LocalLambda;
import com.acme.fulfil.local.lambda.RuntimeHost;
import com.acme.fulfil.local.runtime.PackagedFunction;
import com.acme.fulfil.sim.SimulatedPartner;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * One configuration of fulfil-order set up on an AWS backend as a deploy would leave it: the partner
 * key's secret, the queues, the idempotency table, and the function (this project's from its
 * deployable zip, or the incident's) behind its own event source mapping, wired to {@code partner}.
 * The local run and the system tests stand on it; what they observe and measure is their own.
 *
 * <p>Names come from the deployment's name, so several deployments can share one backend.
 */
public final class LocalDeployment implements AutoCloseable {
  /** The stack's default memory size. */
  private static final int MEMORY_MB = 512;

  private final Deployment deployment;
  private final OrdersQueues queues;
  private final String secretId;
  private final String table;
  private final SqsEventSourceMapping mapping;
  private final LambdaFunction function;

  /**
   * Creates the resources and loads the function; the mapping polls only after {@link #start()}.
   *
   * @param mappingSqs the client the event source mapping polls and deletes with
   * @param environmentOverrides put over the function's environment last (an endpoint a test routes
   *     through a proxy, say)
   */
  public LocalDeployment(Deployment deployment, AwsConnection aws, OrdersStack stack, SqsClient mappingSqs,
      SimulatedPartner partner, MappingListener listener, Map<String, String> environmentOverrides) {
    this(deployment, aws, stack, mappingSqs, partner, listener, environmentOverrides, line -> { });
  }

  /**
   * @param functionLog also gets each line of the function's output (its JSON log lines and EMF
   *     metrics), which goes to standard output as CloudWatch Logs would receive it
   */
  public LocalDeployment(Deployment deployment, AwsConnection aws, OrdersStack stack, SqsClient mappingSqs,
      SimulatedPartner partner, MappingListener listener, Map<String, String> environmentOverrides,
      Consumer<String> functionLog) {
    this(deployment, aws, stack, mappingSqs, partner, listener, environmentOverrides, functionLog,
        stack.createQueues(deployment.queueName(), deployment.queue()));
  }

  /**
   * On queues made beforehand: the first deploy's, around the old setup's source queue
   * ({@link OrdersStack#adoptionOf}), which the mapping polls only after {@link #start()}.
   */
  public LocalDeployment(Deployment deployment, AwsConnection aws, OrdersStack stack, SqsClient mappingSqs,
      SimulatedPartner partner, MappingListener listener, Map<String, String> environmentOverrides,
      Consumer<String> functionLog, OrdersQueues queues) {
    this.deployment = deployment;
    this.secretId = deployment.name() + "/partner-api-key";
    this.table = deployment.name() + "-fulfil-order-idempotency";
    stack.putPartnerKey(secretId, partner.apiKey());
    this.queues = queues;
    FunctionIdentity identity = new FunctionIdentity(functionName(), aws.region());
    this.function = switch (deployment.function()) {
      case Deployment.FunctionCode.Incident incident -> new InProcessFunction(
          new IncidentHandler(partner.baseUrl(), partner.apiKey()), identity, deployment.mapping().functionTimeout());
      case Deployment.FunctionCode.Packaged packaged -> {
        stack.createIdempotencyTable(table);
        Map<String, String> environment = new HashMap<>(aws.functionEnvironment());
        environment.putAll(FunctionEnvironment.everyDeployment());
        environment.putAll(deployment.timingEnvironment());
        environment.putAll(FunctionEnvironment.resources(table, partner.baseUrl().toString(), secretId));
        queues.deadLetter().ifPresent(dlq -> environment.put(FunctionEnvironment.DEAD_LETTER_QUEUE_URL, dlq.url()));
        environment.putAll(environmentOverrides);
        yield packaged(packaged.artifact(), identity, environment, functionLog);
      }
    };
    this.mapping = new SqsEventSourceMapping(mappingSqs, queues.source(), deployment.mapping(), identity.name(), function,
        listener);
  }

  /**
   * The deployable zip in execution environments of its own, started as Lambda's runtime starts them
   * with SnapStart on (as the stack deploys it): the runtime runs the function's priming hooks before
   * the first invocation, and neither that nor the JVM's start counts against an invocation's deadline.
   * As many environments as the mapping may invoke at once are started before the mapping polls, as
   * provisioned concurrency would: a new environment here is a whole JVM start and init, not a
   * SnapStart restore, and at 1/30 scale the seconds it takes would be minutes of AWS time that orders
   * spend waiting for it, which AWS does not make them spend.
   */
  private LocalLambda packaged(Path artifact, FunctionIdentity identity, Map<String, String> environment,
      Consumer<String> functionLog) {
    try {
      Path workDir = Files.createTempDirectory("fulfil-order-" + deployment.name() + "-");
      Path taskRoot = PackagedFunction.unpack(artifact, workDir.resolve("task"));
      FunctionConfiguration configuration = new FunctionConfiguration(taskRoot, PackagedFunction.HANDLER,
          identity.name(), identity.region(), MEMORY_MB, deployment.mapping().functionTimeout(), environment);
      LocalLambda function = new LocalLambda(configuration, RuntimeHost.snapStart(workDir.resolve("runtime")),
          line -> {
            System.out.println(line);
            functionLog.accept(line);
          }, Map.of());
      function.provision(deployment.mapping().maxConcurrency());
      return function;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot lay out the function's task root", e);
    }
  }

  /** The Lambda function's name, which also begins every key in its table. */
  public String functionName() {
    return deployment.name() + "-fulfil-order";
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

  /**
   * Disables the event source mapping: it stops polling, and this returns once it has, as the mapping
   * reads Disabled; the invocations already running go on to their end.
   *
   * @return when the mapping was disabled
   */
  public Instant disableMapping() throws InterruptedException {
    mapping.disable();
    return Instant.now();
  }

  /** Stops polling, waits for the invocations still running (at most the function timeout), stops the function. */
  @Override
  public void close() {
    mapping.close();
    function.close();
  }
}
