package com.acme.fulfil.infra;

import com.acme.fulfil.contract.settings.DeployedNames;
import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.contract.timing.TimingBudget;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.dynamodb.ITable;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.ApplicationLogLevel;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.LoggingFormat;
import software.amazon.awscdk.services.lambda.MetricType;
import software.amazon.awscdk.services.lambda.MetricsConfig;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.SnapStartConf;
import software.amazon.awscdk.services.lambda.SystemLogLevel;
import software.amazon.awscdk.services.lambda.Tracing;
import software.amazon.awscdk.services.lambda.VersionOptions;
import software.amazon.awscdk.services.lambda.eventsources.SqsEventSource;
import software.amazon.awscdk.services.lambda.eventsources.SqsEventSourceProps;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.secretsmanager.ISecret;
import software.amazon.awscdk.services.sqs.IQueue;
import software.constructs.Construct;

/**
 * The {@code fulfil-order} function, the {@code live} alias its SnapStart snapshot is taken for, the
 * event source mapping that feeds the alias from {@code orders-to-fulfil}, and a role that reaches
 * exactly the function's log group, the idempotency table, the partner API key, the queue and a send
 * to its DLQ.
 */
public final class FulfilOrderFunction extends Construct {
  private static final String ALIAS_NAME = "live";
  private static final String HANDLER = "com.acme.fulfil.handler.FulfilOrderHandler::handleRequest";

  private final Function function;
  private final Alias alias;

  public FulfilOrderFunction(Construct scope, String id, TimingBudget budget, DeploymentSettings deployment,
      IQueue orders, IQueue deadLetters, ITable idempotency, ISecret partnerApiKey) {
    super(scope, id);
    LogGroup logs = LogGroup.Builder.create(this, "Logs")
        .logGroupName("/aws/lambda/" + DeployedNames.FUNCTION)
        // Outlives source plus DLQ retention even at the SQS maxima (14 + 14 days), the same lifetime
        // the idempotency TTL covers: the invocations of any message someone inspects are still there.
        .retention(RetentionDays.ONE_MONTH)
        // The old setup's function left this log group in the account; the first deploy adopts it (CloudFormation's
        // import takes only a resource whose DeletionPolicy retains it) and keeps the old setup's lines.
        // Only the deploy that creates it deletes it if that deploy rolls back (docs/deploy.md, "First deploy").
        .removalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE)
        .build();

    // A role of our own instead of the default AWSLambdaBasicExecutionRole, whose log permissions
    // reach every log group in the account.
    Role role = Role.Builder.create(this, "Role")
        .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
        .description("fulfil-order: its log group, the idempotency table, the partner API key, orders-to-fulfil and a send to its DLQ")
        .build();
    logs.grantWrite(role);
    // Exactly what booking.OrderRecords calls: read a record, and claim, complete or release it with
    // conditional updates. No PutItem, which could overwrite a booked order's record whole, and never
    // delete: a failed try's record is the trace that makes the next try look the order up.
    idempotency.grant(role, "dynamodb:GetItem", "dynamodb:UpdateItem");
    role.addToPrincipalPolicy(PolicyStatement.Builder.create()
        .actions(List.of("secretsmanager:GetSecretValue"))
        .resources(List.of(partnerApiKey.getSecretArn()))
        .build());
    // A message that can never succeed goes straight to the DLQ with its reason; sending is all.
    role.addToPrincipalPolicy(PolicyStatement.Builder.create()
        .actions(List.of("sqs:SendMessage"))
        .resources(List.of(deadLetters.getQueueArn()))
        .build());

    Map<String, String> environment = new HashMap<>(budget.functionEnvironment());
    environment.putAll(FunctionEnvironment.resources(idempotency.getTableName(), deployment.partnerBaseUrl(),
        partnerApiKey.getSecretArn()));
    environment.put(FunctionEnvironment.DEAD_LETTER_QUEUE_URL, deadLetters.getQueueUrl());
    environment.put(FunctionEnvironment.LOG_LEVEL, deployment.logLevel());
    // C1 only, measured (docs/performance.md). On java25 with SnapStart Lambda no longer sets this and
    // leaves the JVM's C1 and C2, on the grounds that compilation then happens while the snapshot is made;
    // but the priming drives the booking path only a few times, far from C2's thresholds, so C2 compiles
    // on orders' invocations, and a warm record measured slower with it than with C1 alone (java21's
    // default), as it did before: an invocation that mostly waits on the partner never repays C2.
    environment.putAll(FunctionEnvironment.everyDeployment());

    function = Function.Builder.create(this, "Function")
        .functionName(DeployedNames.FUNCTION)
        .description("Books exactly one courier per order from orders-to-fulfil")
        // The artifact is compiled for Java 21 (--release 21); the managed runtime is the newest, java25,
        // for its SnapStart defaults and support window (docs/deploy.md, "The function").
        .runtime(Runtime.JAVA_25)
        .architecture(Architecture.ARM_64)
        .handler(HANDLER)
        .code(Code.fromAsset(deployment.functionArtifact().toString()))
        .memorySize(deployment.functionMemoryMb())
        .timeout(Duration.seconds(budget.functionTimeout().toSeconds()))
        .snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS)
        // A version's logical id changes with every code or configuration change; without Retain,
        // CloudFormation deletes the previous version at the end of each deploy, and with it the code
        // that ran before it. Rollback is a revert and a deploy (the runbook's "Roll back a bad deploy"), never the alias by
        // hand. Old versions are deleted by hand.
        .currentVersionOptions(VersionOptions.builder().removalPolicy(RemovalPolicy.RETAIN).build())
        .role(role)
        .logGroup(logs)
        .environment(environment)
        .tracing(deployment.activeTracing() ? Tracing.ACTIVE : Tracing.DISABLED)
        // JSON: Lambda's own records (START, END, REPORT) become JSON objects that Logs Insights filters
        // beside the function's lines, and their level can be set. The function's lines are JSON already,
        // which Lambda keeps as they are, filed by their "level".
        .loggingFormat(LoggingFormat.JSON)
        .applicationLogLevelV2(applicationLogLevel(deployment.logLevel()))
        .systemLogLevelV2(SystemLogLevel.INFO)
        // The mapping's cap and a little headroom, kept for this function alone: other functions cannot take the
        // account's concurrency from it. AWS: a maximum concurrency above the reserved concurrency throttles
        // invocations, and each throttle costs a message one of its receives; with the two equal, a single test
        // invoke would do the same. A person's invoke runs beside the mapping; a second consumer still throttles.
        .reservedConcurrentExecutions(budget.capacity(deployment.maxConcurrency()).reservedConcurrency())
        .build();
    if (deployment.activeTracing()) {
      NagSuppressions.addResourceSuppressions(role, List.of(NagPackSuppression.builder()
          .id("AwsSolutions-IAM5")
          .appliesTo(List.of("Resource::*"))
          .reason("Active tracing, asked for with -c activeTracing=true: xray:PutTraceSegments and"
              + " xray:PutTelemetryRecords take no resource-level permissions, so CDK grants them on *.")
          .build()), true);
    }
    // SnapStart only snapshots published versions, so the mapping invokes the alias, never $LATEST.
    Annotations.of(function).acknowledgeWarning("@aws-cdk/aws-lambda:snapStartRequirePublish",
        "the live alias below publishes a version on every change");
    alias = Alias.Builder.create(this, "Live")
        .aliasName(ALIAS_NAME)
        .version(function.getCurrentVersion())
        .build();
    // The event source grants the role what the mapping needs on orders-to-fulfil (receive, delete,
    // attributes) and sqs:ChangeMessageVisibility, which the handler also calls itself to return a
    // permanently failed message to the queue at once.
    SqsEventSource source = new SqsEventSource(orders, SqsEventSourceProps.builder()
        .batchSize(budget.batchSize())
        .maxBatchingWindow(Duration.seconds(budget.batchingWindow().toSeconds()))
        .reportBatchItemFailures(true)
        .maxConcurrency(deployment.maxConcurrency())
        // The mapping's own counts (polled, invoked, failed, deleted): what happens to a message
        // between the queue and the function, which neither the queue's nor the function's metrics show.
        .metricsConfig(MetricsConfig.builder().metrics(List.of(MetricType.EVENT_COUNT)).build())
        // As committed: a mapping on-call paused stays paused through a deploy (the runbook's "Partner outage").
        .enabled(deployment.mappingEnabled())
        .build());
    alias.addEventSource(source);
  }

  /**
   * Lambda files a JSON line without a "level" (the function's Embedded Metric Format lines) as INFO, so
   * its filter never goes above INFO, or the metrics the alarms read would be dropped; below INFO it
   * follows the function's own level, so that DEBUG and TRACE lines asked for reach CloudWatch.
   */
  private static ApplicationLogLevel applicationLogLevel(String logLevel) {
    return switch (logLevel) {
      case "TRACE" -> ApplicationLogLevel.TRACE;
      case "DEBUG" -> ApplicationLogLevel.DEBUG;
      default -> ApplicationLogLevel.INFO;
    };
  }

  public Function function() {
    return function;
  }

  public Alias alias() {
    return alias;
  }
}
