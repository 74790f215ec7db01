package com.acme.fulfil.booking;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** What the booking tests and models share: the records' table, a client for it and a clock the test moves. */
public final class ModelParts {
  private ModelParts() {}

  /** The order records' table as the stack makes it: one string partition key. */
  public static void createTable(DynamoDbClient dynamoDb, String table) {
    dynamoDb.createTable(t -> t.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
        .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
        .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S)));
  }

  /**
   * Takes {@code Content-Length} off before signing, so the JDK buffers each small body and sends it
   * with its headers: streamed, every call waits a millisecond for the JDK's check of a pooled
   * connection, which the models' hundreds of thousands of calls would add up. A test's speed only: the
   * function streams its few calls an order.
   */
  private static final ExecutionInterceptor BODIES_WHOLE = new ExecutionInterceptor() {
    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
      return context.httpRequest().toBuilder().removeHeader("Content-Length").build();
    }
  };

  /** A client of the DynamoDB at {@code endpoint} (the emulator), its bodies sent whole ({@link #BODIES_WHOLE}). */
  public static DynamoDbClient dynamoDb(URI endpoint) {
    return DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("model", "model")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .overrideConfiguration(o -> o.addExecutionInterceptor(BODIES_WHOLE))
        .build();
  }

  /** A clock the test moves: the protocol's timing is the point of these tests, not the wall clock's. */
  public static final class SettableClock extends Clock {
    private volatile Instant now;

    public SettableClock(Instant now) {
      this.now = now;
    }

    public void set(Instant instant) {
      now = instant;
    }

    public void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
