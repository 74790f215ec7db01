package com.acme.fulfil.local.aws;

import com.acme.fulfil.contract.records.OrderRecordLayout;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveSpecification;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.ResourceNotFoundException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Creates the resources the CDK stack creates, through the SDK, on whatever backend the connection
 * points at: the orders queue with its redrive, the dead-letter queue, the idempotency table and the
 * partner key's secret.
 */
public final class OrdersStack {
  private final SqsClient sqs;
  private final DynamoDbClient dynamoDb;
  private final SecretsManagerClient secrets;

  public OrdersStack(SqsClient sqs, DynamoDbClient dynamoDb, SecretsManagerClient secrets) {
    this.sqs = sqs;
    this.dynamoDb = dynamoDb;
    this.secrets = secrets;
  }

  /** The DLQ (if the settings have a redrive) is named {@code <name>-dlq}, as in the CDK stack. */
  public OrdersQueues createQueues(String name, QueueSettings settings) {
    Optional<QueueRef> deadLetter = settings.redrive().map(redrive -> createDeadLetterQueue(name, redrive));
    return new OrdersQueues(createQueue(name, sourceAttributes(settings, deadLetter)), deadLetter, settings);
  }

  /**
   * The first deploy's queues around a source queue that already exists (the old setup's): the DLQ is
   * created, the source is left exactly as it is until {@link #adopt(OrdersQueues)}. An empty DLQ that
   * nothing points at yet changes nothing for the old setup.
   */
  public OrdersQueues adoptionOf(QueueRef existingSource, QueueSettings settings) {
    Optional<QueueRef> deadLetter = settings.redrive().map(redrive -> createDeadLetterQueue(existingSource.name(), redrive));
    return new OrdersQueues(existingSource, deadLetter, settings);
  }

  /**
   * Gives the existing source queue the settings' visibility timeout, retention and redrive, as the
   * cutover does before the import deploy (CloudFormation's import keeps a resource's properties as it
   * finds them). Messages already in flight keep the visibility timeout they were received with.
   */
  public void adopt(OrdersQueues queues) {
    sqs.setQueueAttributes(request -> request.queueUrl(queues.source().url())
        .attributes(sourceAttributes(queues.settings(), queues.deadLetter())));
  }

  private QueueRef createDeadLetterQueue(String sourceName, QueueSettings.Redrive redrive) {
    return createQueue(sourceName + "-dlq", Map.of(
        QueueAttributeName.MESSAGE_RETENTION_PERIOD, seconds(redrive.dlqRetention())));
  }

  private static Map<QueueAttributeName, String> sourceAttributes(QueueSettings settings, Optional<QueueRef> deadLetter) {
    var attributes = new HashMap<QueueAttributeName, String>();
    attributes.put(QueueAttributeName.VISIBILITY_TIMEOUT, seconds(settings.visibilityTimeout()));
    attributes.put(QueueAttributeName.MESSAGE_RETENTION_PERIOD, seconds(settings.retention()));
    settings.redrive().ifPresent(redrive -> attributes.put(QueueAttributeName.REDRIVE_POLICY,
        "{\"deadLetterTargetArn\":\"" + deadLetter.orElseThrow().arn()
            + "\",\"maxReceiveCount\":\"" + redrive.maxReceiveCount() + "\"}"));
    return attributes;
  }

  public void createIdempotencyTable(String tableName) {
    dynamoDb.createTable(table -> table
        .tableName(tableName)
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(AttributeDefinition.builder()
            .attributeName(OrderRecordLayout.KEY).attributeType(ScalarAttributeType.S).build())
        .keySchema(KeySchemaElement.builder().attributeName(OrderRecordLayout.KEY).keyType(KeyType.HASH).build()));
    dynamoDb.waiter().waitUntilTableExists(request -> request.tableName(tableName));
    dynamoDb.updateTimeToLive(ttl -> ttl.tableName(tableName).timeToLiveSpecification(
        TimeToLiveSpecification.builder().attributeName(OrderRecordLayout.EXPIRY).enabled(true).build()));
  }

  /** Stores the partner's API key as the secret's current value, creating the secret the first time (a rotation after that). */
  public void putPartnerKey(String secretId, String apiKey) {
    try {
      secrets.putSecretValue(request -> request.secretId(secretId).secretString(apiKey));
    } catch (ResourceNotFoundException e) {
      secrets.createSecret(request -> request.name(secretId).secretString(apiKey));
    }
  }

  private QueueRef createQueue(String name, Map<QueueAttributeName, String> attributes) {
    String url = sqs.createQueue(request -> request.queueName(name).attributes(attributes)).queueUrl();
    String arn = sqs.getQueueAttributes(request -> request.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
        .attributes().get(QueueAttributeName.QUEUE_ARN);
    return new QueueRef(name, url, arn);
  }

  private static String seconds(Duration duration) {
    return Long.toString(duration.toSeconds());
  }
}
