package com.acme.fulfil.secrets;

import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The partner API key, read from Secrets Manager once per container and re-read only when the partner says the key
 * we hold is no longer valid (it rotates keys without telling us when).
 */
public final class ApiKeySource {
  private final SecretsManagerClient secrets;
  private final String secretId;
  private final AtomicReference<String> cached = new AtomicReference<>();

  public ApiKeySource(SecretsManagerClient secrets, String secretId) {
    this.secrets = secrets;
    this.secretId = secretId;
  }

  public String current() {
    String key = cached.get();
    return key != null ? key : reloadUnlessReplaced(null);
  }

  /**
   * Called after a 401 with the refused key. Concurrent records that saw the same 401 re-read the secret once
   * between them; a record that already holds a newer key gets it back.
   */
  public String refreshAfterRejection(String rejectedKey) {
    return reloadUnlessReplaced(rejectedKey);
  }

  private synchronized String reloadUnlessReplaced(String rejectedKey) {
    String key = cached.get();
    if (key != null && !key.equals(rejectedKey)) {
      return key;
    }
    String fresh;
    try {
      fresh = secrets.getSecretValue(r -> r.secretId(secretId)).secretString();
    } catch (SdkException e) {
      throw new SecretUnavailableException(
          "could not read the partner API key secret: " + e.getClass().getSimpleName(), e);
    }
    if (fresh == null || fresh.isBlank()) {
      throw new SecretUnavailableException("the partner API key secret has no string value", null);
    }
    cached.set(fresh.strip());
    return cached.get();
  }
}
