package com.acme.fulfil.system.harness;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.lambda.FunctionConfiguration;
import com.acme.fulfil.local.runtime.PackagedFunction;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import java.nio.file.Files;
import java.nio.file.Path;

/** The function's deployable zip, as the reactor built it before these tests (see system-tests/pom.xml). */
public final class PackagedArtifact {
  private PackagedArtifact() {}

  public static Path path() {
    Path zip = Path.of(System.getProperty("fulfil.artifact", "../function/target/fulfil-order.zip"));
    if (!Files.isRegularFile(zip)) {
      throw new IllegalStateException("no function artifact at " + zip.toAbsolutePath() + ": run ./mvnw verify from the root");
    }
    return zip;
  }

  /**
   * The packaged function as the stack configures it, under {@code name}: its zip unpacked below {@code workDir},
   * the stack's environment for {@code budget}, the table {@code name-idempotency}, the secret
   * {@code name/partner-api-key} and this partner, 512 MB and {@code timeout}.
   */
  public static FunctionConfiguration configuration(AwsConnection aws, TimingBudget budget, String name, URI partner,
      Duration timeout, Path workDir) {
    Map<String, String> environment = new HashMap<>(aws.functionEnvironment());
    environment.putAll(FunctionEnvironment.everyDeployment());
    environment.putAll(budget.functionEnvironment());
    environment.put(FunctionEnvironment.IDEMPOTENCY_TABLE_NAME, name + "-idempotency");
    environment.put(FunctionEnvironment.PARTNER_BASE_URL, partner.toString());
    environment.put(FunctionEnvironment.PARTNER_API_KEY_SECRET_ID, name + "/partner-api-key");
    Path taskRoot = PackagedFunction.unpack(path(), workDir.resolve("task"));
    return new FunctionConfiguration(taskRoot, PackagedFunction.HANDLER, name + "-fulfil-order", aws.region(), 512, timeout,
        environment);
  }
}
