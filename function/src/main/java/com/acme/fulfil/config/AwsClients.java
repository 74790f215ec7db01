package com.acme.fulfil.config;

import com.acme.fulfil.queue.ProducersTraceOnly;
import java.net.URI;
import java.util.Optional;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.utils.Lazy;

/**
 * The three AWS clients, built once per container on one shared URL-connection HTTP client: it starts faster than
 * Apache or Netty, and the function makes a handful of calls per record. SQS is only called for a failed record, so
 * its client is built on first use rather than in every cold start.
 */
public record AwsClients(DynamoDbClient dynamoDb, SecretsManagerClient secretsManager, Lazy<SqsClient> sqs) {

  public static AwsClients create(FunctionConfig.AwsEndpoints endpoints) {
    SdkHttpClient http = UrlConnectionHttpClient.builder().build();
    return new AwsClients(
        configure(DynamoDbClient.builder().httpClient(http), endpoints.region(), endpoints.dynamoDb()).build(),
        configure(SecretsManagerClient.builder().httpClient(http), endpoints.region(), endpoints.secretsManager())
            .build(),
        new Lazy<>(() -> configure(SqsClient.builder().httpClient(http), endpoints.region(), endpoints.sqs())
            .overrideConfiguration(o -> o.addExecutionInterceptor(new ProducersTraceOnly())).build()));
  }

  private static <B extends AwsClientBuilder<B, ?>> B configure(B builder, Optional<String> region,
      Optional<URI> endpoint) {
    region.map(Region::of).ifPresent(builder::region);
    endpoint.ifPresent(builder::endpointOverride);
    return builder;
  }
}
