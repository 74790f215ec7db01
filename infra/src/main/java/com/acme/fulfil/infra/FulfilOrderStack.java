package com.acme.fulfil.infra;

import com.acme.fulfil.contract.oncall.RunbookSections;
import com.acme.fulfil.contract.records.OrderRecordLayout;
import com.acme.fulfil.contract.timing.TimingBudget;
import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import software.amazon.awscdk.Aspects;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Environment;
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

  public FulfilOrderStack(Construct scope, String id, TimingBudget budget, DeploymentSettings deployment) {
    super(scope, id, StackProps.builder()
        .description("orders-to-fulfil, its DLQ and the fulfil-order function that books one courier per order")
        // Deleting the stack takes a deliberate step first (docs/deploy.md, "Removing it"): the queues hold
        // up to 4 days of waiting orders and 14 days of dead letters.
        .terminationProtection(true)
        // The committed account and region: cdk deploy with credentials for another account stops.
        .env(Environment.builder().account(deployment.awsAccount()).region(deployment.awsRegion()).build())
        .build());

    OrderQueues queues = new OrderQueues(this, "Queues", budget);
    Table idempotency = idempotencyTable();
    // The secret on-call put the key in, by the ARN committed in cdk.json; the stack never creates one,
    // so no deploy can put a placeholder where the partner's key is.
    ISecret partnerApiKey = Secret.fromSecretCompleteArn(this, "PartnerApiKey", deployment.partnerApiKeySecretArn());
    FulfilOrderFunction fulfilOrder = new FulfilOrderFunction(
        this, "FulfilOrder", budget, deployment, queues.source(), queues.deadLetters(), idempotency, partnerApiKey);
    FulfilOrderAlarms alarms = new FulfilOrderAlarms(
        this, "Alarms", budget, budget.capacity(deployment.maxConcurrency()), queues, fulfilOrder.function(),
        deployment.alarmEmail());

    output("QueueUrl", queues.source().getQueueUrl(), "Where the checkout service sends orders");
    output("DlqUrl", queues.deadLetters().getQueueUrl(), "Orders that can never succeed (sent by the function on their"
        + " first receive) and orders whose receives ran out: ./fulfil-ops dlq, " + RunbookSections.see(RunbookSections.DLQ_ALARMS));
    output("AlarmTopicArn", alarms.topic().getTopicArn(), "Subscribe on-call here");
    output("IdempotencyTableName", idempotency.getTableName(), "One record per booked order");
    output("FunctionAliasArn", fulfilOrder.alias().getFunctionArn(), "What the event source mapping invokes");
    output("PartnerApiKeySecretArn", partnerApiKey.getSecretArn(), "Where the function reads the partner's API key");
    output("PartnerBaseUrl", deployment.partnerBaseUrl(), "The partner the function was deployed to call: on-call's"
        + " commands send the partner's API key there");

    Aspects.of(this).add(new AwsSolutionsChecks());
    // A page that SNS refuses reaches nobody and shows nowhere but the alarm's history: synth stops first.
    getNode().addValidation(new AlarmTopicsAcceptCloudWatch(this));
  }

  /**
   * Keyed on the order id: a redriven or duplicated order finds its booking. Retained when the stack
   * goes, because deleting it would let every later redelivery book its order a second time; deleted only
   * when the deploy that created it rolls back, while it is still empty, so that deploy can be run again.
   */
  private Table idempotencyTable() {
    return Table.Builder.create(this, "Idempotency")
        .tableName(IDEMPOTENCY_TABLE_NAME)
        .partitionKey(Attribute.builder().name(OrderRecordLayout.KEY).type(AttributeType.STRING).build())
        .timeToLiveAttribute(OrderRecordLayout.EXPIRY)
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .pointInTimeRecoverySpecification(PointInTimeRecoverySpecification.builder()
            .pointInTimeRecoveryEnabled(true)
            .build())
        .removalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE)
        .build();
  }

  private void output(String id, String value, String description) {
    CfnOutput.Builder.create(this, id).value(value).description(description).build();
  }
}
