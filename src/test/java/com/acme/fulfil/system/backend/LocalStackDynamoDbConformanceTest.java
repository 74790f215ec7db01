package com.acme.fulfil.system.backend;

import org.junit.jupiter.api.Tag;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.localstack.LocalStackContainer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * LocalStack's DynamoDB, the second backend of the system tests, answers as DynamoDB does. It needs a
 * Docker engine: without one the class is skipped, and says so. Tagged, so the LocalStack profile runs it
 * beside the {@link OnSelectedBackend} classes.
 */
@Tag("localstack")
@Testcontainers(disabledWithoutDocker = true)
class LocalStackDynamoDbConformanceTest extends DynamoDbConformance {
  @Container
  private static final LocalStackContainer LOCALSTACK = new LocalStackContainer(LocalStackBackend.IMAGE).withServices("dynamodb");

  @Override
  DynamoDbClient connect() {
    return DynamoDbClient.builder().endpointOverride(LOCALSTACK.getEndpoint()).region(Region.of(LOCALSTACK.getRegion()))
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create(LOCALSTACK.getAccessKey(), LOCALSTACK.getSecretKey())))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .build();
  }
}
