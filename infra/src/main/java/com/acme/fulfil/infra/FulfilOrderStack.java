package com.acme.fulfil.infra;

import com.acme.fulfil.timing.TimingBudget;
import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.List;
import software.amazon.awscdk.Aspects;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.secretsmanager.ISecret;
import software.amazon.awscdk.services.secretsmanager.Secret;
import software.constructs.Construct;

/**
 * The whole fulfil-order deployment: orders-to-fulfil and its DLQ, the fulfil-order function fed by
 * them, the idempotency table and partner API key it uses, and the alarms. Every number that couples
 * these comes from one {@link TimingBudget}; cdk-nag's AWS Solutions checks run on every synth.
 */
public final class FulfilOrderStack extends Stack {
  private static final String IDEMPOTENCY_TABLE_NAME = "fulfil-order-idempotency";
  private static final String PARTNER_API_KEY_SECRET_NAME = "fulfil-order/partner-api-key";

  public FulfilOrderStack(Construct scope, String id, TimingBudget budget, DeploymentSettings deployment) {
    super(scope, id, StackProps.builder()
        .description("orders-to-fulfil, its DLQ and the fulfil-order function that books one courier per order")
        .build());

    OrderQueues queues = new OrderQueues(this, "Queues", budget);
    Table idempotency = idempotencyTable();
    ISecret partnerApiKey = deployment.partnerApiKeySecretArn()
        .map(arn -> Secret.fromSecretCompleteArn(this, "PartnerApiKey", arn))
        .orElseGet(this::partnerApiKeyPlaceholder);
    FulfilOrderFunction fulfilOrder = new FulfilOrderFunction(
        this, "FulfilOrder", budget, deployment, queues.source(), queues.deadLetters(), idempotency, partnerApiKey);
    FulfilOrderAlarms alarms = new FulfilOrderAlarms(
        this, "Alarms", budget, budget.capacity(deployment.maxConcurrency()), queues, fulfilOrder.function(),
        fulfilOrder.mappingId(), deployment.alarmEmail());

    output("QueueUrl", queues.source().getQueueUrl(), "Where the checkout service sends orders");
    output("DlqUrl", queues.deadLetters().getQueueUrl(), "Orders that can never succeed (sent by the function on their"
        + " first receive) and orders whose receives ran out: ./fulfil-ops dlq, runbook section 2");
    output("AlarmTopicArn", alarms.topic().getTopicArn(), "Subscribe on-call here");
    output("IdempotencyTableName", idempotency.getTableName(), "One record per booked order");
    output("FunctionAliasArn", fulfilOrder.alias().getFunctionArn(), "What the event source mapping invokes");
    output("PartnerApiKeySecretArn", partnerApiKey.getSecretArn(), "Put the partner's API key here");
    output("PartnerBaseUrl", deployment.partnerBaseUrl(), "The partner the function was deployed to call; check compares"
        + " the function's PARTNER_BASE_URL with it");

    Aspects.of(this).add(new AwsSolutionsChecks());
  }

  /**
   * Keyed on the order id: a redriven or duplicated order finds its booking. Retained when the stack
   * goes, because deleting it would let every later redelivery book its order a second time.
   */
  private Table idempotencyTable() {
    return Table.Builder.create(this, "Idempotency")
        .tableName(IDEMPOTENCY_TABLE_NAME)
        .partitionKey(Attribute.builder().name("id").type(AttributeType.STRING).build())
        .timeToLiveAttribute("expiration")
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .pointInTimeRecoverySpecification(PointInTimeRecoverySpecification.builder()
            .pointInTimeRecoveryEnabled(true)
            .build())
        .removalPolicy(RemovalPolicy.RETAIN)
        .build();
  }

  /**
   * CloudFormation cannot create a secret without a value, so the stack fills it with a random string
   * the partner rejects (401, retried as transient) until someone puts the real key in it.
   */
  private ISecret partnerApiKeyPlaceholder() {
    Secret secret = Secret.Builder.create(this, "PartnerApiKey")
        .secretName(PARTNER_API_KEY_SECRET_NAME)
        .description("The fulfilment partner's API key, the bare key string. Replace the generated"
            + " placeholder: aws secretsmanager put-secret-value --secret-id " + PARTNER_API_KEY_SECRET_NAME)
        .removalPolicy(RemovalPolicy.RETAIN)
        .build();
    NagSuppressions.addResourceSuppressions(secret, List.of(NagPackSuppression.builder()
        .id("AwsSolutions-SMG4")
        .reason("The partner issues and rotates this key, not us: after a cut-over an operator puts the"
            + " new key here and the function re-reads the secret on the partner's first 401.")
        .build()));
    return secret;
  }

  private void output(String id, String value, String description) {
    CfnOutput.Builder.create(this, id).value(value).description(description).build();
  }
}
