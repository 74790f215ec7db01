package com.acme.fulfil.ops;

import com.acme.fulfil.contract.AlarmThresholds;
import com.acme.fulfil.contract.OnCallSettings;
import com.acme.fulfil.contract.Settings;
import com.acme.fulfil.contract.TimingBudget;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the stack is deployed with: infra/cdk.json's context, the one file {@code cdk synth}, the deploy
 * workflow and {@code check} all read. {@code ./fulfil-ops} names the file in {@link #FILE_VARIABLE}.
 *
 * @param partnerBaseUrl empty where the file commits none (synth then refuses to deploy from it); so are the
 *     secret and the address
 */
record DeployedSettings(Path file, TimingBudget budget, Optional<String> partnerBaseUrl,
    Optional<String> partnerApiKeySecretArn, Optional<String> alarmEmail, boolean mappingEnabled, int maxConcurrency,
    int functionMemoryMb, String logLevel, boolean activeTracing) {
  static final String FILE_VARIABLE = "FULFIL_OPS_CDK_JSON";

  static DeployedSettings from(Map<String, String> env) {
    String file = env.get(FILE_VARIABLE);
    if (file == null || file.isBlank()) {
      throw new OpsException(FILE_VARIABLE + " is not set: run ./fulfil-ops from the repository, which points it at"
          + " infra/cdk.json, the settings the stack is deployed with");
    }
    return read(Path.of(file));
  }

  static DeployedSettings read(Path file) {
    JsonNode context;
    try {
      context = new ObjectMapper().readTree(file.toFile()).path("context");
    } catch (IOException e) {
      throw new OpsException("cannot read " + file + ", the settings the stack is deployed with: " + e.getMessage());
    }
    List<String> missing = new ArrayList<>(OnCallSettings.ALL.stream().filter(key -> !context.has(key)).toList());
    if (!missing.isEmpty()) {
      throw new OpsException(file + " has no " + String.join(", ", missing) + ": every setting the stack is deployed"
          + " with belongs in its context");
    }
    Settings settings = new Settings(key -> context.path(key).isValueNode() && !context.get(key).isNull()
        ? context.get(key).asText() : null);
    return new DeployedSettings(file, TimingBudget.fromSettings(key -> context.has(key) ? context.get(key).asText() : null),
        settings.text(OnCallSettings.PARTNER_BASE_URL),
        settings.text(OnCallSettings.PARTNER_API_KEY_SECRET_ARN),
        settings.text(OnCallSettings.ALARM_EMAIL),
        settings.flag(OnCallSettings.MAPPING_ENABLED).orElseThrow(),
        settings.integer(OnCallSettings.MAX_CONCURRENCY).orElseThrow(),
        settings.integer(OnCallSettings.FUNCTION_MEMORY_MB).orElseThrow(),
        settings.text(OnCallSettings.LOG_LEVEL).orElseThrow(),
        settings.flag(OnCallSettings.ACTIVE_TRACING).orElseThrow());
  }

  /** Each alarm's threshold for these settings, as the stack sets it. */
  Map<String, Double> alarmThresholds() {
    return AlarmThresholds.of(budget, budget.capacity(maxConcurrency));
  }
}
