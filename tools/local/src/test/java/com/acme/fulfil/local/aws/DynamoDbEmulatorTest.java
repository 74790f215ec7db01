package com.acme.fulfil.local.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** The emulator as the local stack and the tests use it: one database for every caller, and nothing left behind. */
class DynamoDbEmulatorTest {

  @Test
  void everyCallerSeesOneDatabaseWhateverItsAccessKeyAndRegion() {
    try (DynamoDbEmulator emulator = DynamoDbEmulator.start();
        DynamoDbClient function = client(emulator.endpoint(), "local", "us-east-1");
        DynamoDbClient onCallsProfile = client(emulator.endpoint(), "someone-else", "eu-west-1")) {
      function.createTable(t -> t.tableName("shared-table").billingMode(BillingMode.PAY_PER_REQUEST)
          .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
          .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S)));
      function.putItem(r -> r.tableName("shared-table").item(Map.of("id", AttributeValue.fromS("order-1"))));

      assertThat(onCallsProfile.getItem(r -> r.tableName("shared-table").consistentRead(true)
          .key(Map.of("id", AttributeValue.fromS("order-1")))).item()).containsKey("id");
    }
  }

  @Test
  void closingEndsTheEmulatorProcessAndFreesItsPort() {
    DynamoDbEmulator emulator = DynamoDbEmulator.start();
    List<ProcessHandle> before = processesServing(emulator.endpoint().getPort());
    assertThat(before).as("the emulator runs under this JVM").isNotEmpty();

    emulator.close();

    assertThat(before).as("no emulator process outlives close()").noneMatch(ProcessHandle::isAlive);
    assertThatThrownBy(() -> new Socket(emulator.endpoint().getHost(), emulator.endpoint().getPort()).close())
        .isInstanceOf(IOException.class);
  }

  /** This JVM's emulator processes on that port (the tests of this class run side by side). */
  private static List<ProcessHandle> processesServing(int port) {
    return ProcessHandle.current().descendants()
        .filter(p -> p.info().command().map(c -> c.endsWith("/dynoxide")).orElse(false))
        .filter(p -> p.info().arguments().map(List::of).orElse(List.of()).contains(Integer.toString(port)))
        .toList();
  }

  private static DynamoDbClient client(URI endpoint, String accessKey, String region) {
    return DynamoDbClient.builder().endpointOverride(endpoint).region(Region.of(region))
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, "secret")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .build();
  }
}
