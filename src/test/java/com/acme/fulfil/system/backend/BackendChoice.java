package com.acme.fulfil.system.backend;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.aws.EmbeddedAws;
import java.util.Locale;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;

/**
 * Which AWS the system tests run on, chosen by the system property {@value #PROPERTY} (the Maven
 * profile {@code localstack} sets it). Every test class runs unchanged on each: the tests only use the
 * backend's {@code AwsConnection}. A third backend (a sandbox account) is one more constant and a small
 * {@code AwsBackend} whose connection has no endpoint overrides.
 */
public enum BackendChoice {
  /** ElasticMQ and the Secrets Manager simulator inside the test JVM, the DynamoDB emulator beside it: runs everywhere. */
  EMBEDDED {
    @Override
    public AwsBackend start() {
      return EmbeddedAws.start();
    }

    @Override
    public Optional<String> whyUnavailable() {
      return Optional.empty();
    }
  },
  /** LocalStack in a container (Testcontainers): needs a Docker engine, and without one the tests are skipped. */
  LOCALSTACK {
    @Override
    public AwsBackend start() {
      return LocalStackBackend.start();
    }

    @Override
    public Optional<String> whyUnavailable() {
      return DockerClientFactory.instance().isDockerAvailable()
          ? Optional.empty()
          : Optional.of("the LocalStack backend was selected (" + PROPERTY + "=localstack) but no Docker engine is"
              + " reachable here: skipped, not run");
    }
  };

  public static final String PROPERTY = "fulfil.backend";

  public static BackendChoice selected() {
    String name = System.getProperty(PROPERTY, "embedded").strip().toUpperCase(Locale.ROOT);
    try {
      return valueOf(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(PROPERTY + " is '" + name.toLowerCase(Locale.ROOT)
          + "' but must be embedded or localstack", e);
    }
  }

  public abstract AwsBackend start();

  /** Why this backend cannot run on this machine, if it cannot. */
  public abstract Optional<String> whyUnavailable();
}
