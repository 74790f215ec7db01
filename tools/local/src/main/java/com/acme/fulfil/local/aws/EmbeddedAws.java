package com.acme.fulfil.local.aws;

import com.acme.fulfil.sim.SecretsManagerEndpoint;
import com.typesafe.config.ConfigFactory;
import java.net.URI;
import java.util.Optional;
import org.apache.pekko.actor.ActorSystem;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;

/**
 * SQS (ElasticMQ) and Secrets Manager (the simulators' endpoint) inside this JVM and DynamoDB (the
 * {@link DynamoDbEmulator}, a child process that ends with it), each on its own loopback port, so the real SDK clients (the function's and the AWS CLI's)
 * talk to them over HTTP exactly as to AWS: the function reads its partner key through the same
 * Secrets Manager call it makes in AWS.
 *
 * <p>Two behaviours differ from AWS and the callers handle them knowingly: ElasticMQ ignores
 * MessageRetentionPeriod, and it refuses a delete with an outdated receipt handle with
 * {@code ReceiptHandleIsInvalid}, where AWS accepts it and "might not" delete the message (the event
 * source mapping counts these refusals: each is a message handed out again mid-invocation).
 */
public final class EmbeddedAws implements AwsBackend {
  /** Fixed, obviously fake values: nothing here may ever pick up a developer's real credentials. */
  public static final String REGION = "us-east-1";
  public static final AwsBasicCredentials CREDENTIALS = AwsBasicCredentials.create("local", "local");
  private static final String LOOPBACK = "127.0.0.1";

  private final ActorSystem sqsActors;
  private final SQSRestServer sqsServer;
  private final DynamoDbEmulator dynamoDb;
  private final SecretsManagerEndpoint secretsManager;
  private final AwsConnection connection;

  private EmbeddedAws(ActorSystem sqsActors, SQSRestServer sqsServer, int sqsPort,
      DynamoDbEmulator dynamoDb, SecretsManagerEndpoint secretsManager) {
    this.sqsActors = sqsActors;
    this.sqsServer = sqsServer;
    this.dynamoDb = dynamoDb;
    this.secretsManager = secretsManager;
    this.connection = new AwsConnection(REGION, CREDENTIALS,
        Optional.of(URI.create("http://" + LOOPBACK + ":" + sqsPort)),
        Optional.of(dynamoDb.endpoint()),
        Optional.of(secretsManager.endpoint()));
  }

  public static EmbeddedAws start() {
    // ElasticMQ's own configuration turns Pekko's logging to DEBUG; give it an actor system that only
    // reports warnings, instead of changing a process-wide property.
    ActorSystem actors = ActorSystem.create("elasticmq", ConfigFactory
        .parseString("pekko.loglevel = WARNING\npekko.stdout-loglevel = WARNING")
        .withFallback(ConfigFactory.load()));
    SQSRestServer sqs = null;
    DynamoDbEmulator dynamoDb = null;
    try {
      sqs = SQSRestServerBuilder.withActorSystem(actors)
          .withInterface(LOOPBACK)
          .withDynamicPort()
          .withAWSRegion(REGION)
          .start();
      int sqsPort = sqs.waitUntilStarted().localAddress().getPort();
      // The emulator keeps one database whatever the caller's access key and region: the function, the
      // scenario and an AWS CLI with any profile all see the same table (DynamoDbEmulatorTest).
      dynamoDb = DynamoDbEmulator.start();
      return new EmbeddedAws(actors, sqs, sqsPort, dynamoDb, SecretsManagerEndpoint.start());
    } catch (Exception e) {
      if (dynamoDb != null) {
        dynamoDb.close();
      }
      if (sqs != null) {
        sqs.stopAndWait();
      }
      actors.terminate();
      throw new IllegalStateException("the embedded AWS stack did not start: " + e.getMessage(), e);
    }
  }

  @Override
  public AwsConnection connection() {
    return connection;
  }

  /** The Secrets Manager simulator behind the connection, for tests that make it fail. */
  public SecretsManagerEndpoint secretsManager() {
    return secretsManager;
  }

  @Override
  public String name() {
    return "embedded (ElasticMQ, Dynoxide, Secrets Manager simulator)";
  }

  @Override
  public void close() {
    secretsManager.close();
    dynamoDb.close();
    try {
      sqsServer.stopAndWait();
    } catch (Exception e) {
      // Seen once in CI: ElasticMQ's HTTP server did not finish unbinding within its own minute after a
      // run whose assertions had passed. Its actors go below either way; an emulator loses nothing.
      System.err.println("ElasticMQ did not stop cleanly (" + e + "); terminating its actors");
    } finally {
      sqsActors.terminate();
    }
  }
}
