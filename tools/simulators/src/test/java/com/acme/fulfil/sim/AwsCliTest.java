package com.acme.fulfil.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The endpoint as the AWS CLI (what an operator uses in the runbook) sees it; skipped without one. */
class AwsCliTest {

  private static final long CLI_LIMIT_SECONDS = 60;

  @TempDir
  Path home;

  private SecretsManagerEndpoint endpoint;

  @BeforeEach
  void start() {
    assumeTrue(cliAvailable(), "the aws CLI is not on PATH; the SDK tests cover the wire format");
    endpoint = SecretsManagerEndpoint.start();
  }

  @AfterEach
  void stop() {
    if (endpoint != null) {
      endpoint.close();
    }
  }

  @Test
  void cliReadsTheCurrentValue() throws Exception {
    endpoint.putSecret("fulfil/partner-api-key", "key-one");

    CliResult result = aws("secretsmanager", "get-secret-value", "--secret-id", "fulfil/partner-api-key");

    assertThat(result.exitCode()).as(result.stderr()).isZero();
    JsonNode value = new ObjectMapper().readTree(result.stdout());
    assertThat(value.path("SecretString").asText()).isEqualTo("key-one");
    assertThat(value.path("Name").asText()).isEqualTo("fulfil/partner-api-key");
    assertThat(value.path("VersionStages").get(0).asText()).isEqualTo("AWSCURRENT");
  }

  @Test
  void cliWritesANewVersionTheEndpointServes() throws Exception {
    endpoint.putSecret("fulfil/partner-api-key", "key-one");

    CliResult put = aws("secretsmanager", "put-secret-value",
        "--secret-id", "fulfil/partner-api-key", "--secret-string", "key-two");
    CliResult read = aws("secretsmanager", "get-secret-value", "--secret-id", "fulfil/partner-api-key");

    assertThat(put.exitCode()).as(put.stderr()).isZero();
    assertThat(new ObjectMapper().readTree(read.stdout()).path("SecretString").asText()).isEqualTo("key-two");
  }

  @Test
  void cliReportsAMissingSecret() throws Exception {
    CliResult result = aws("secretsmanager", "get-secret-value", "--secret-id", "no-such-secret");

    assertThat(result.exitCode()).isNotZero();
    assertThat(result.stderr()).contains("ResourceNotFoundException").contains("can't find the specified secret");
  }

  private CliResult aws(String... arguments) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(List.of("aws", "--endpoint-url", endpoint.endpoint().toString(), "--output", "json"));
    command.addAll(List.of(arguments));
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> environment = builder.environment();
    environment.keySet().removeIf(name -> name.startsWith("AWS_"));
    environment.putAll(Map.of(
        "AWS_ACCESS_KEY_ID", "test",
        "AWS_SECRET_ACCESS_KEY", "test",
        "AWS_DEFAULT_REGION", "us-east-1",
        "AWS_CONFIG_FILE", home.resolve("config").toString(),
        "AWS_SHARED_CREDENTIALS_FILE", home.resolve("credentials").toString(),
        "AWS_PAGER", ""));
    Path stdout = Files.createTempFile(home, "out", ".json");
    Path stderr = Files.createTempFile(home, "err", ".txt");
    Process process = builder.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    if (!process.waitFor(CLI_LIMIT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("aws did not finish within " + CLI_LIMIT_SECONDS + " s");
    }
    return new CliResult(process.exitValue(),
        Files.readString(stdout, StandardCharsets.UTF_8), Files.readString(stderr, StandardCharsets.UTF_8));
  }

  private static boolean cliAvailable() {
    try {
      Process probe = new ProcessBuilder("aws", "--version").redirectErrorStream(true).start();
      probe.getInputStream().transferTo(OutputStream.nullOutputStream());
      return probe.waitFor(CLI_LIMIT_SECONDS, TimeUnit.SECONDS) && probe.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private record CliResult(int exitCode, String stdout, String stderr) {}
}
