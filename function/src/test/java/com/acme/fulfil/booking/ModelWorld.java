package com.acme.fulfil.booking;

import com.acme.fulfil.local.aws.DynamoDbEmulator;
import com.acme.fulfil.observability.FulfilmentMetrics;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.lambda.powertools.metrics.MetricsBuilder;

/**
 * The world both booking models run in, this module's {@code BookingProtocolModelTest} and the system tests'
 * {@code OrderLifeModelTest}: the order records' table in the DynamoDB emulator, the function's logs silenced
 * (thousands of runs, every outcome logged: the invariants speak for them), and the function's timing shrunk so
 * that a run takes milliseconds of the model's clock, in the stack's proportions.
 */
public final class ModelWorld implements AutoCloseable {
  public static final String TABLE = "fulfil-order-idempotency";
  public static final String FUNCTION = "fulfil-order";
  /** Shared by every run, as the function shares one: a mapper per run would learn the record's types again each time. */
  public static final ObjectMapper JSON = new ObjectMapper();
  public static final FulfilmentMetrics METRICS =
      new FulfilmentMetrics(MetricsBuilder.builder().withNamespace("Model").withService("model").build());
  public static final Duration FUNCTION_TIMEOUT = Duration.ofSeconds(2);
  public static final Duration CONTRACT_MAXIMUM = Duration.ofSeconds(1);
  public static final Duration HOLD = CONTRACT_MAXIMUM.plusMillis(100);
  public static final Duration VISIBILITY = FUNCTION_TIMEOUT.multipliedBy(6);
  public static final Duration RECORD_LIFETIME = Duration.ofDays(21);
  public static final int MAX_RECEIVES = 5;

  private static final Logger FUNCTION_LOGS = Logger.getLogger("com.acme.fulfil");

  private final Level functionLogLevel;
  private final DynamoDbEmulator emulator;
  private final DynamoDbClient dynamoDb;

  private ModelWorld(Level functionLogLevel, DynamoDbEmulator emulator) {
    this.functionLogLevel = functionLogLevel;
    this.emulator = emulator;
    this.dynamoDb = ModelParts.dynamoDb(emulator.endpoint());
    ModelParts.createTable(dynamoDb, TABLE);
  }

  public static ModelWorld start() {
    Level level = FUNCTION_LOGS.getLevel();
    FUNCTION_LOGS.setLevel(Level.OFF);
    return new ModelWorld(level, DynamoDbEmulator.start());
  }

  /** The emulator's records table, {@link #TABLE}. */
  public DynamoDbClient dynamoDb() {
    return dynamoDb;
  }

  @Override
  public void close() {
    FUNCTION_LOGS.setLevel(functionLogLevel);
    dynamoDb.close();
    emulator.close();
  }
}
