package com.acme.fulfil.booking;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** What the booking tests and models share: the records' table and a clock the test moves. */
public final class ModelParts {
  private ModelParts() {}

  /** The order records' table as the stack makes it: one string partition key. */
  public static void createTable(DynamoDbClient dynamoDb, String table) {
    dynamoDb.createTable(t -> t.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
        .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
        .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S)));
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
