package com.acme.fulfil.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.acme.fulfil.contract.settings.OnCallSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeploymentSettingsTest {
  @TempDir Path dir;
  private Path artifact;

  @BeforeEach
  void buildAnArtifact() throws IOException {
    artifact = Files.createFile(dir.resolve("fulfil-order.zip"));
  }

  @Test
  void cdkJsonProtectsThePartnerAndRunsTheMapping() {
    DeploymentSettings settings = DeploymentSettings.fromContext(context(Map.of()));

    assertThat(settings.maxConcurrency()).isEqualTo(10);
    assertThat(settings.functionMemoryMb()).isEqualTo(512);
    assertThat(settings.logLevel()).isEqualTo("INFO");
    assertThat(settings.activeTracing()).isFalse();
    assertThat(settings.mappingEnabled()).isTrue();
    assertThat(settings.functionArtifact()).isEqualTo(artifact.toAbsolutePath());
  }

  /**
   * What on-call relies on is refused when missing, never defaulted: no placeholder secret, no example
   * address, no partner taken from whoever deploys, no mapping started again.
   */
  @Test
  void everySettingOnCallReliesOnIsRefusedWhenMissingNamingWhereItBelongs() {
    for (String key : java.util.List.of(OnCallSettings.PARTNER_BASE_URL, OnCallSettings.PARTNER_API_KEY_SECRET_ARN,
        OnCallSettings.ALARM_EMAIL, DeploymentSettings.AWS_ACCOUNT, DeploymentSettings.AWS_REGION)) {
      Map<String, String> without = new HashMap<>();
      without.put(key, null);
      assertThatThrownBy(() -> DeploymentSettings.fromContext(context(without))).as(key)
          .hasMessageContaining(key + " is not set: commit").hasMessageContaining("in infra/cdk.json's context");
    }
    Map<String, String> noMappingState = new HashMap<>();
    noMappingState.put(OnCallSettings.MAPPING_ENABLED, null);
    assertThatThrownBy(() -> DeploymentSettings.fromContext(context(noMappingState)))
        .hasMessageContaining("mappingEnabled is not set: it belongs in infra/cdk.json's context");
  }

  /** A value passed only with -c is undone by the next deploy that does not pass it (a tag's, for one). */
  @Test
  void everySettingOnCallMayChangeIsCommittedInCdkJson() {
    assertThat(Synth.cdkJsonContext()).containsKeys(OnCallSettings.ALL.toArray(String[]::new));
  }

  @Test
  void aSettingMissingFromCdkJsonIsRefusedNotDefaulted() {
    Map<String, String> without = new HashMap<>(Map.of());
    without.put(OnCallSettings.MAX_CONCURRENCY, null);
    assertThatThrownBy(() -> DeploymentSettings.fromContext(context(without)))
        .hasMessageContaining("maxConcurrency is not set: it belongs in infra/cdk.json's context");
  }

  @Test
  void logLevelMustBeOneTheFunctionKnows() {
    assertThatThrownBy(() -> DeploymentSettings.fromContext(context(Map.of("logLevel", "VERBOSE"))))
        .hasMessageContaining("logLevel is 'VERBOSE' but must be one of TRACE, DEBUG, INFO, WARN, ERROR");
  }

  @Test
  void missingArtifactSaysWhichBuildMakesIt() {
    assertThatThrownBy(() -> DeploymentSettings.fromContext(
            context(Map.of("functionArtifact", dir.resolve("absent.zip").toString()))))
        .isInstanceOf(InvalidDeploymentSettingsException.class)
        .hasMessageContaining("absent.zip does not exist: run ./mvnw package first");
  }

  @Test
  void partnerMustBeReachedOverHttps() {
    assertThatThrownBy(() -> DeploymentSettings.fromContext(context(Map.of("partnerBaseUrl", "http://partner.example"))))
        .hasMessageContaining("partnerBaseUrl is 'http://partner.example' but must be an https:// URL");
  }

  @Test
  void importedSecretMustBeACompleteArn() {
    assertThatThrownBy(() -> DeploymentSettings.fromContext(context(Map.of(
            "partnerApiKeySecretArn", "arn:aws:secretsmanager:eu-west-1:123456789012:secret:partner/api-key"))))
        .hasMessageContaining("must be a complete secret ARN");
  }

  @Test
  void memoryOutsideWhatLambdaAcceptsIsRefused() {
    assertThatThrownBy(() -> DeploymentSettings.fromContext(context(Map.of("functionMemoryMb", "64"))))
        .hasMessageContaining("functionMemoryMb is 64 but Lambda accepts 128 to 10240");
  }

  @Test
  void theTargetIsOneAccountIdAndOneRegionCode() {
    assertThatThrownBy(() -> DeploymentSettings.fromContext(context(Map.of("awsAccount", "acme-prod", "awsRegion", "Frankfurt"))))
        .hasMessageContaining("awsAccount is 'acme-prod' but must be a 12-digit AWS account id")
        .hasMessageContaining("awsRegion is 'Frankfurt' but must be an AWS region code such as eu-west-1");
  }

  @Test
  void alarmEmailMustBeOneAddress() {
    assertThatThrownBy(() -> DeploymentSettings.fromContext(context(Map.of("alarmEmail", "oncall"))))
        .hasMessageContaining("alarmEmail is 'oncall' but must be one e-mail address");
  }

  private Function<String, String> context(Map<String, String> overrides) {
    Map<String, String> all = new HashMap<>();
    Synth.cdkJsonContext().forEach((key, value) -> all.put(key, String.valueOf(value)));
    Synth.environmentSettings().forEach((key, value) -> all.put(key, String.valueOf(value)));
    all.put("functionArtifact", artifact.toString());
    all.putAll(overrides);
    return all::get;
  }
}
