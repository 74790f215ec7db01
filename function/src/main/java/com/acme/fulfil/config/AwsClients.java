package com.acme.fulfil.config;

import com.acme.fulfil.snapstart.LoopbackRedirect;
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
 * The three AWS clients, built once per container on one shared URL-connection HTTP client: it starts
 * faster than Apache or Netty and the function makes a handful of calls per record, each with its body
 * sent in one piece ({@link BufferedRequestBodies}). Each can be sent to loopback, one thread at a
 * time, for SnapStart's priming.
 *
 * <p>SQS is only called for a message that can never succeed, so its client is built on first use rather
 * than in every cold start (with SnapStart, priming builds it before the snapshot).
 */
public record AwsClients(DynamoDbClient dynamoDb, SecretsManagerClient secretsManager, Lazy<SqsClient> sqs,
    LoopbackRedirect loopback) {
  private static final BufferedRequestBodies BUFFERED_BODIES = new BufferedRequestBodies();

  public static AwsClients create(FunctionConfig.AwsEndpoints endpoints) {
    SdkHttpClient http = UrlConnectionHttpClient.builder().build();
    LoopbackRedirect loopback = new LoopbackRedirect();
    return new AwsClients(
        configure(DynamoDbClient.builder().httpClient(http), endpoints.region(), endpoints.dynamoDb(), loopback).build(),
        configure(SecretsManagerClient.builder().httpClient(http), endpoints.region(), endpoints.secretsManager(), loopback).build(),
        new Lazy<>(() -> configure(SqsClient.builder().httpClient(http), endpoints.region(), endpoints.sqs(), loopback).build()),
        loopback);
  }

  private static <B extends AwsClientBuilder<B, ?>> B configure(B builder, Optional<String> region, Optional<URI> endpoint,
      LoopbackRedirect loopback) {
    region.map(Region::of).ifPresent(builder::region);
    endpoint.ifPresent(builder::endpointOverride);
    builder.overrideConfiguration(o -> o.addExecutionInterceptor(BUFFERED_BODIES).addExecutionInterceptor(loopback));
    return builder;
  }
}
