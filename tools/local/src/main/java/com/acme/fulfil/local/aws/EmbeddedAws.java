package com.acme.fulfil.local.aws;

import com.acme.fulfil.sim.SecretsManagerEndpoint;
import com.amazonaws.services.dynamodbv2.local.main.CommandLineInput;
import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Optional;
import org.apache.pekko.actor.ActorSystem;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;

/**
 * SQS (ElasticMQ), DynamoDB (DynamoDB Local) and Secrets Manager (the simulators' endpoint) inside
 * this JVM, each on its own loopback port, so the real SDK clients (the function's and the AWS CLI's)
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
  private final DynamoDBProxyServer dynamoDbServer;
  private final SecretsManagerEndpoint secretsManager;
  private final AwsConnection connection;

  private EmbeddedAws(ActorSystem sqsActors, SQSRestServer sqsServer, int sqsPort,
      DynamoDBProxyServer dynamoDbServer, int dynamoDbPort, SecretsManagerEndpoint secretsManager) {
    this.sqsActors = sqsActors;
    this.sqsServer = sqsServer;
    this.dynamoDbServer = dynamoDbServer;
    this.secretsManager = secretsManager;
    this.connection = new AwsConnection(REGION, CREDENTIALS,
        Optional.of(URI.create("http://" + LOOPBACK + ":" + sqsPort)),
        Optional.of(URI.create("http://" + LOOPBACK + ":" + dynamoDbPort)),
        Optional.of(secretsManager.endpoint()));
  }

  public static EmbeddedAws start() {
    // ElasticMQ's own configuration turns Pekko's logging to DEBUG; give it an actor system that only
    // reports warnings, instead of changing a process-wide property.
    ActorSystem actors = ActorSystem.create("elasticmq", ConfigFactory
        .parseString("pekko.loglevel = WARNING\npekko.stdout-loglevel = WARNING")
        .withFallback(ConfigFactory.load()));
    SQSRestServer sqs = null;
    DynamoDBProxyServer dynamoDb = null;
    try {
      sqs = SQSRestServerBuilder.withActorSystem(actors)
          .withInterface(LOOPBACK)
          .withDynamicPort()
          .withAWSRegion(REGION)
          .start();
      int sqsPort = sqs.waitUntilStarted().localAddress().getPort();
      int dynamoDbPort = freeLoopbackPort();
      // -sharedDb: one database whatever the caller's access key and region, so the function, the
      // scenario and an AWS CLI with any profile all see the same table.
      CommandLineInput dynamoDbOptions = new CommandLineInput(new String[] {
          "-inMemory", "-sharedDb", "-disableTelemetry", "-port", Integer.toString(dynamoDbPort)});
      if (!dynamoDbOptions.init()) {
        throw new IllegalStateException("DynamoDB Local refused its options");
      }
      // createServer, not createServerFromCommandLineArgs: the latter prints a banner to stdout.
      dynamoDb = ServerRunner.createServer(dynamoDbOptions);
      dynamoDb.start();
      return new EmbeddedAws(actors, sqs, sqsPort, dynamoDb, dynamoDbPort, SecretsManagerEndpoint.start());
    } catch (Exception e) {
      stopQuietly(dynamoDb);
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
    return "embedded (ElasticMQ, DynamoDB Local, Secrets Manager simulator)";
  }

  @Override
  public void close() {
    secretsManager.close();
    stopQuietly(dynamoDbServer);
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

  /** Closing is best effort: an in-memory database that fails to stop loses nothing. */
  private static void stopQuietly(DynamoDBProxyServer dynamoDb) {
    if (dynamoDb == null) {
      return;
    }
    try {
      dynamoDb.stop();
    } catch (Exception e) {
      System.getLogger(EmbeddedAws.class.getName()).log(System.Logger.Level.WARNING, "DynamoDB Local did not stop: " + e);
    }
  }

  /** DynamoDB Local cannot report a port it chose itself, so ask the OS for one and hand it over. */
  private static int freeLoopbackPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
