package com.acme.fulfil.sim;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Secrets with versions and staging labels, as Secrets Manager keeps them: a new value becomes
 * {@code AWSCURRENT}, the value it replaces {@code AWSPREVIOUS}. Reads return immutable snapshots.
 */
final class SecretStore {

  static final String CURRENT = "AWSCURRENT";
  static final String PREVIOUS = "AWSPREVIOUS";

  /** One version as a reader sees it. */
  record Version(String versionId, String value, Instant created, List<String> stages) {}

  /** A secret as a reader sees it. */
  record Secret(String arn, String name, Optional<String> description, Instant created, Instant lastChanged,
      List<Version> versions) {

    Optional<Version> version(String versionId) {
      return versions.stream().filter(version -> version.versionId().equals(versionId)).findFirst();
    }

    Optional<Version> staged(String stage) {
      return versions.stream().filter(version -> version.stages().contains(stage)).findFirst();
    }
  }

  private static final String ARN_SUFFIX_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

  private final String arnPrefix;
  private final InstantSource clock;
  private final SplittableRandom random = new SplittableRandom();
  private final Map<String, StoredSecret> secretsByName = new LinkedHashMap<>();

  SecretStore(String region, String accountId, InstantSource clock) {
    this.arnPrefix = "arn:aws:secretsmanager:" + region + ":" + accountId + ":secret:";
    this.clock = clock;
  }

  synchronized Secret create(String name, Optional<String> value, String versionId, Optional<String> description) {
    if (secretsByName.containsKey(name)) {
      throw new ServiceError("ResourceExistsException", 400,
          "The operation failed because the secret " + name + " already exists.");
    }
    StoredSecret secret = new StoredSecret(arnPrefix + name + "-" + arnSuffix(), name, description, clock.instant());
    secretsByName.put(name, secret);
    value.ifPresent(initial -> secret.add(versionId, initial, List.of(CURRENT), clock.instant()));
    return secret.snapshot();
  }

  /**
   * Adds a version labelled {@code stages}. Re-sending a version id with the same value changes
   * nothing (the SDK's idempotency token); with another value it fails, as in AWS.
   */
  synchronized Secret put(String secretId, String value, String versionId, List<String> stages) {
    StoredSecret secret = find(secretId);
    StoredVersion existing = secret.versions.get(versionId);
    if (existing != null && !existing.value.equals(value)) {
      throw new ServiceError("ResourceExistsException", 400,
          "You can't modify an existing version, you can only create a new version.");
    }
    if (existing == null) {
      secret.add(versionId, value, stages, clock.instant());
    }
    return secret.snapshot();
  }

  /** Creates {@code name} holding {@code value}, or adds {@code value} as its new current version. */
  synchronized Secret putOrCreate(String name, String value, String versionId) {
    return secretsByName.containsKey(name)
        ? put(name, value, versionId, List.of(CURRENT))
        : create(name, Optional.of(value), versionId, Optional.empty());
  }

  synchronized Secret describe(String secretId) {
    return find(secretId).snapshot();
  }

  /** Looks a secret up by name or full ARN, as Secrets Manager accepts both as a SecretId. */
  private StoredSecret find(String secretId) {
    StoredSecret byName = secretsByName.get(secretId);
    if (byName != null) {
      return byName;
    }
    return secretsByName.values().stream()
        .filter(secret -> secret.arn.equals(secretId))
        .findFirst()
        .orElseThrow(ServiceError::notFound);
  }

  private String arnSuffix() {
    StringBuilder suffix = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      suffix.append(ARN_SUFFIX_CHARACTERS.charAt(random.nextInt(ARN_SUFFIX_CHARACTERS.length())));
    }
    return suffix.toString();
  }

  private static final class StoredSecret {
    private final String arn;
    private final String name;
    private final Optional<String> description;
    private final Instant created;
    private Instant lastChanged;
    private final Map<String, StoredVersion> versions = new LinkedHashMap<>();

    private StoredSecret(String arn, String name, Optional<String> description, Instant created) {
      this.arn = arn;
      this.name = name;
      this.description = description;
      this.created = created;
      this.lastChanged = created;
    }

    /** Moves each label to the new version; the version losing AWSCURRENT gains AWSPREVIOUS. */
    private void add(String versionId, String value, List<String> stages, Instant at) {
      for (String stage : stages) {
        for (StoredVersion version : versions.values()) {
          if (version.stages.remove(stage) && stage.equals(CURRENT)) {
            versions.values().forEach(other -> other.stages.remove(PREVIOUS));
            version.stages.add(PREVIOUS);
          }
        }
      }
      versions.put(versionId, new StoredVersion(value, at, new LinkedHashSet<>(stages)));
      lastChanged = at;
    }

    private Secret snapshot() {
      List<Version> copies = new ArrayList<>();
      versions.forEach((id, version) ->
          copies.add(new Version(id, version.value, version.created, List.copyOf(version.stages))));
      return new Secret(arn, name, description, created, lastChanged, List.copyOf(copies));
    }
  }

  private record StoredVersion(String value, Instant created, Set<String> stages) {}
}
