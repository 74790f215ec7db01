package com.acme.fulfil.system.backend;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.aws.AwsConnection;
import java.net.URI;
import java.util.Optional;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;

/** SQS, DynamoDB and Secrets Manager from LocalStack in a container, all behind its one edge endpoint. */
final class LocalStackBackend implements AwsBackend {
  /**
   * Pinned. From its 2026.03 release the image needs an auth token and exits without one; 4.14.0 is a
   * community release from before that gate, so CI needs no LocalStack account.
   */
  static final DockerImageName IMAGE = DockerImageName.parse("localstack/localstack:4.14.0");

  private final LocalStackContainer container;
  private final AwsConnection connection;

  private LocalStackBackend(LocalStackContainer container) {
    this.container = container;
    URI edge = container.getEndpoint();
    this.connection = new AwsConnection(container.getRegion(),
        AwsBasicCredentials.create(container.getAccessKey(), container.getSecretKey()),
        Optional.of(edge), Optional.of(edge), Optional.of(edge));
  }

  static LocalStackBackend start() {
    LocalStackContainer container = new LocalStackContainer(IMAGE).withServices("sqs", "dynamodb", "secretsmanager");
    container.start();
    return new LocalStackBackend(container);
  }

  @Override
  public AwsConnection connection() {
    return connection;
  }

  @Override
  public String name() {
    return "localstack (" + IMAGE.asCanonicalNameString() + ")";
  }

  @Override
  public void close() {
    container.stop();
  }
}
