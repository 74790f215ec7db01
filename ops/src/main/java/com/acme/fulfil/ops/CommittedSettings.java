package com.acme.fulfil.ops;

import com.acme.fulfil.contract.settings.OnCallSettings;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * infra/cdk.json's context as committed, the one file {@code cdk synth}, the deploy workflow and {@code check}
 * read. {@code ./fulfil-ops} names the file in {@link #FILE_VARIABLE}.
 *
 * @param values each setting of {@link OnCallSettings#RECORDED} the file gives a value, as text, as synth reads
 *     it: one it commits as null (the environment's values, left to the team) is absent
 */
record CommittedSettings(Map<String, String> values) {
  static final String FILE_VARIABLE = "FULFIL_OPS_CDK_JSON";
  /** How check names the file in its sentences, wherever the variable points. */
  static final String NAME = "infra/cdk.json";

  static CommittedSettings from(Map<String, String> env) {
    String file = env.get(FILE_VARIABLE);
    if (file == null || file.isBlank()) {
      throw new OpsException(FILE_VARIABLE + " is not set: run ./fulfil-ops from the repository, which points it at"
          + " infra/cdk.json, the settings the stack is deployed with");
    }
    return read(Path.of(file));
  }

  static CommittedSettings read(Path file) {
    JsonNode context;
    try {
      context = new ObjectMapper().readTree(file.toFile()).path("context");
    } catch (IOException e) {
      throw new OpsException("cannot read " + file + ", the settings the stack is deployed with: " + e.getMessage());
    }
    // A setting the file lacks is no error here: check names it, against what the stack was deployed with.
    Map<String, String> values = new LinkedHashMap<>();
    OnCallSettings.RECORDED.stream().filter(key -> context.path(key).isValueNode() && !context.get(key).isNull())
        .forEach(key -> values.put(key, context.get(key).asText()));
    return new CommittedSettings(values);
  }

  TimingBudget budget() {
    return TimingBudget.fromSettings(values::get);
  }

  /**
   * A sentence for each setting the stack was deployed with other than committed here (a {@code -c} value, an
   * uncommitted edit, another commit), which drift detection cannot see: it compares resources with the
   * template that deploy made.
   */
  List<String> differencesFrom(Map<String, String> deployedWith) {
    return OnCallSettings.RECORDED.stream().filter(key -> !Objects.equals(values.get(key), deployedWith.get(key)))
        .map(key -> deployedWith.containsKey(key)
            ? "the stack was deployed with " + key + " " + deployedWith.get(key) + ", " + NAME + " commits "
                + values.getOrDefault(key, "none") + ": commit " + deployedWith.get(key) + " there if it was meant, or"
                + " deploy from the committed file"
            : "the stack was deployed without " + key + ", " + NAME + " commits " + values.get(key)
                + ": deploy from the committed file")
        .toList();
  }
}
