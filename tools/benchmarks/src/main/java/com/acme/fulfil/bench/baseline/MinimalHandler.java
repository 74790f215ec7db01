package com.acme.fulfil.bench.baseline;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * The cold-start benchmark's baseline: the least an SQS consumer that claims each record in DynamoDB
 * can be, hand-written on the plain SDK v2 (one conditional PutItem per record), with no Powertools,
 * no AspectJ and no OkHttp. Packaged with the function's own SDK jars, so the comparison isolates what
 * fulfil-order adds.
 */
public final class MinimalHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
  private static final DynamoDbClient DYNAMO_DB = DynamoDbClient.builder()
      .httpClient(UrlConnectionHttpClient.create())
      .endpointOverride(URI.create(System.getenv("AWS_ENDPOINT_URL_DYNAMODB")))
      .build();
  private static final String TABLE = System.getenv("IDEMPOTENCY_TABLE_NAME");

  @Override
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
    List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
    for (SQSEvent.SQSMessage record : event.getRecords()) {
      try {
        DYNAMO_DB.putItem(r -> r.tableName(TABLE)
            .item(Map.of("id", AttributeValue.fromS("baseline#" + record.getMessageId()),
                "status", AttributeValue.fromS("COMPLETED")))
            .conditionExpression("attribute_not_exists(id)"));
      } catch (ConditionalCheckFailedException e) {
        // Seen before: nothing to do.
      }
    }
    return new SQSBatchResponse(failures);
  }
}
