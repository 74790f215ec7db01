package com.acme.fulfil.sim;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.net.URI;
import java.time.InstantSource;
import java.util.UUID;

/**
 * An embedded Secrets Manager on loopback that the real AWS SDK v2 {@code SecretsManagerClient}
 * (with {@code endpointOverride}) and the AWS CLI ({@code --endpoint-url}) talk to.
 *
 * <p>Operations: {@code CreateSecret}, {@code PutSecretValue}, {@code GetSecretValue} (by
 * AWSCURRENT, a {@code VersionStage} or a {@code VersionId}) and {@code DescribeSecret}, with the
 * real response shapes and errors ({@code ResourceNotFoundException}, {@code
 * ResourceExistsException}, {@code InternalServiceError}). Any credentials are accepted: SigV4 is
 * not verified. ARNs use region us-east-1 and account 000000000000.
 */
public final class SecretsManagerEndpoint implements AutoCloseable {

  static final String REGION = "us-east-1";
  static final String ACCOUNT_ID = "000000000000";

  private final SecretStore store;
  private final SecretsManagerProtocol protocol;
  private final LoopbackServer server;

  private SecretsManagerEndpoint() {
    JsonMapper json = JsonMapper.builder().enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN).build();
    this.store = new SecretStore(REGION, ACCOUNT_ID, InstantSource.system());
    this.protocol = new SecretsManagerProtocol(store, json);
    this.server = LoopbackServer.start(protocol);
  }

  public static SecretsManagerEndpoint start() {
    return new SecretsManagerEndpoint();
  }

  /** {@code http://127.0.0.1:<port>}: for {@code endpointOverride} or {@code AWS_ENDPOINT_URL_SECRETS_MANAGER}. */
  public URI endpoint() {
    return server.uri();
  }

  /**
   * Sets {@code secretId}'s value: creates the secret, or adds a new version that becomes
   * AWSCURRENT (the old value becomes AWSPREVIOUS), as a rotation does.
   */
  public void putSecret(String secretId, String value) {
    store.putOrCreate(secretId, value, UUID.randomUUID().toString());
  }

  /**
   * The next {@code requests} requests answer 500 {@code InternalServiceError}; 0 heals at once.
   *
   * <p>The SDK retries a 500 (by default up to 3 retries in legacy mode, 2 in standard), so one
   * SDK call fails only when every attempt hits a failure: use a number larger than the client's
   * attempts, or {@code Integer.MAX_VALUE} for "down until healed".
   */
  public void failNext(int requests) {
    protocol.failNext(requests);
  }

  /** Requests received for {@code operation} (e.g. {@code "GetSecretValue"}), failed ones included. */
  public int requestCount(String operation) {
    return protocol.requestCount(operation);
  }

  @Override
  public void close() {
    server.close();
  }
}
