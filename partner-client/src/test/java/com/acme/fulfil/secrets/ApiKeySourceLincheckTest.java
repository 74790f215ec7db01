package com.acme.fulfil.secrets;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.GetSecretValueRequest;
import software.amazon.awssdk.services.secretsmanager.model.GetSecretValueResponse;

/**
 * The partner key is the one piece of in-memory state the records of an invocation share: Lincheck's
 * model checker runs reads and post-401 refreshes from several threads at every interleaving it can
 * reach and checks that each outcome is one some sequential order of the same calls gives. A secret
 * that rotates on every read makes a second re-read visible: records that saw the same 401 must agree
 * on one new key, never rotate it twice between them.
 */
@Param(name = "rejected", gen = IntGen.class, conf = "1:3")
public class ApiKeySourceLincheckTest {
  private final ApiKeySource source = new ApiKeySource(new RotatingSecret(), "partner-api-key");

  @Operation
  public String current() {
    return source.current();
  }

  @Operation
  public String refreshAfterRejection(@Param(name = "rejected") int keyNumber) {
    return source.refreshAfterRejection("key-" + keyNumber);
  }

  // Twenty scenarios of 100 interleavings each: without the lock, this finds the double re-read in every
  // run tried, within the first few scenarios; 500 interleavings a scenario found it no more often and
  // took five times as long, on the function's critical path.
  @Test
  void recordsThatSeeTheSameRejectionReReadTheSecretOnceBetweenThem() {
    new ModelCheckingOptions().iterations(20).invocationsPerIteration(100).threads(3).actorsPerThread(2)
        .check(ApiKeySourceLincheckTest.class);
  }

  /** Secrets Manager with a key that rotates on every read: key-1, key-2, ... */
  private static final class RotatingSecret implements SecretsManagerClient {
    private int reads;

    @Override
    public GetSecretValueResponse getSecretValue(GetSecretValueRequest request) {
      reads++;
      return GetSecretValueResponse.builder().secretString("key-" + reads).build();
    }

    @Override
    public String serviceName() {
      return SERVICE_NAME;
    }

    @Override
    public void close() {
    }
  }
}
