package com.acme.fulfil.system.backend;

import com.acme.fulfil.local.aws.DynamoDbEmulator;
import com.acme.fulfil.local.aws.EmbeddedAws;
import org.junit.jupiter.api.AfterAll;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The DynamoDB emulator that the tests, the models and {@code ./run-local} use answers as DynamoDB does. */
class DynamoDbEmulatorConformanceTest extends DynamoDbConformance {
  private DynamoDbEmulator emulator;

  @Override
  DynamoDbClient connect() {
    emulator = DynamoDbEmulator.start();
    return DynamoDbClient.builder().endpointOverride(emulator.endpoint()).region(Region.of(EmbeddedAws.REGION))
        .credentialsProvider(StaticCredentialsProvider.create(EmbeddedAws.CREDENTIALS))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .build();
  }

  @AfterAll
  void stopEmulator() {
    emulator.close();
  }
}
