package com.acme.fulfil.infra;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * Runs the app the way {@code cdk synth} does: cdk.json's context (the feature flags), then the
 * test's {@code -c} values, through {@link FulfilOrderApp#define}. The function's code is a small
 * stand-in zip, so infra's tests need no build of function.
 */
final class Synth {
  /**
   * Stand-ins for the environment's settings, which infra/cdk.json commits for the deployed stack (and
   * synth refuses without): the tests' cdk.json has them.
   */
  static final String PARTNER_BASE_URL = "https://partner.test.example";
  static final String ALARM_EMAIL = "oncall@acme.example";
  static final String PARTNER_API_KEY_SECRET_ARN =
      "arn:aws:secretsmanager:eu-west-1:123456789012:secret:fulfil-order/partner-api-key-AbC123";
  static final String AWS_ACCOUNT = "123456789012";
  static final String AWS_REGION = "eu-west-1";

  private static final Path TARGET = Path.of("target");
  private static FulfilOrderStack defaultStack;
  private static Template defaults;
  private static Path functionArtifact;

  private Synth() {}

  /** The stack with every setting at its default, defined once per test JVM (a synth costs seconds). */
  static synchronized FulfilOrderStack defaultStack() {
    if (defaultStack == null) {
      defaultStack = stack(Map.of());
    }
    return defaultStack;
  }

  /** The template of {@link #defaultStack()}. */
  static synchronized Template defaults() {
    if (defaults == null) {
      defaults = Template.fromStack(defaultStack());
    }
    return defaults;
  }

  /** The stack for these context values, failing the test if the app refuses them. */
  static FulfilOrderStack stack(Map<String, ?> context) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Optional<FulfilOrderStack> stack = FulfilOrderApp.define(app(context), new PrintStream(err, true, UTF_8));
    return stack.orElseThrow(() -> new AssertionError("the app refused the context:\n" + err.toString(UTF_8)));
  }

  /** What the app prints when it defines the stack for these context values; fails the test if it refuses them. */
  static String printedBySynth(Map<String, ?> context) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Optional<FulfilOrderStack> stack = FulfilOrderApp.define(app(context), new PrintStream(err, true, UTF_8));
    assertThat(stack).as("the app refused the context:\n%s", err.toString(UTF_8)).isPresent();
    return err.toString(UTF_8);
  }

  /** What the app prints when it refuses these context values; fails the test if it defines a stack. */
  static String refusal(Map<String, ?> context) {
    App app = app(context);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Optional<FulfilOrderStack> stack = FulfilOrderApp.define(app, new PrintStream(err, true, UTF_8));
    assertThat(stack).as("a stack was defined for %s", context).isEmpty();
    assertThat(app.getNode().getChildren()).as("constructs added before refusing").isEmpty();
    return err.toString(UTF_8);
  }

  /** The one IAM policy of the stack's role, as its list of statements. */
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> roleStatements(Template template) {
    Map<String, Map<String, Object>> policies = template.findResources("AWS::IAM::Policy");
    assertThat(policies).hasSize(1);
    Map<String, Object> properties = (Map<String, Object>) policies.values().iterator().next().get("Properties");
    return (List<Map<String, Object>>) ((Map<String, Object>) properties.get("PolicyDocument")).get("Statement");
  }

  /** The logical id of the one resource of {@code type} whose properties include {@code properties}. */
  static String logicalId(Template template, String type, Map<String, ?> properties) {
    Map<String, Map<String, Object>> found =
        template.findResources(type, Map.of("Properties", Match.objectLike(properties)));
    assertThat(found).as("%s with %s", type, properties).hasSize(1);
    return found.keySet().iterator().next();
  }

  static Map<String, Object> ref(String logicalId) {
    return Map.of("Ref", logicalId);
  }

  static Map<String, Object> arnOf(String logicalId) {
    return Map.of("Fn::GetAtt", List.of(logicalId, "Arn"));
  }

  private static App app(Map<String, ?> context) {
    Map<String, Object> all = new HashMap<>(cdkJsonContext());
    all.putAll(environmentSettings());
    all.put("functionArtifact", functionArtifact().toString());
    // The stand-ins above, as CI's synth passes them: allowed, and the assembly marked never to be deployed.
    all.put(StandInSettings.CI_SYNTH_ONLY, "true");
    all.putAll(context);
    try {
      Files.createDirectories(TARGET);
      Path outdir = Files.createTempDirectory(TARGET, "cdk.out-");
      return new App(AppProps.builder().context(all).outdir(outdir.toString()).build());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The environment's settings, as the tests' cdk.json commits them. */
  static Map<String, Object> environmentSettings() {
    return Map.of("partnerBaseUrl", PARTNER_BASE_URL, "alarmEmail", ALARM_EMAIL, "partnerApiKeySecretArn", PARTNER_API_KEY_SECRET_ARN,
        DeploymentSettings.AWS_ACCOUNT, AWS_ACCOUNT, DeploymentSettings.AWS_REGION, AWS_REGION);
  }

  /** infra/cdk.json's context, as cdk reads it. */
  static Map<String, Object> cdkJsonContext() {
    try {
      Map<String, Object> cdkJson = new ObjectMapper().readValue(Path.of("cdk.json").toFile(), new TypeReference<>() {});
      @SuppressWarnings("unchecked")
      Map<String, Object> context = (Map<String, Object>) cdkJson.get("context");
      return context;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static synchronized Path functionArtifact() {
    if (functionArtifact == null) {
      try {
        Path zip = Files.createDirectories(TARGET.resolve("test-function")).resolve("fulfil-order.zip");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
          out.putNextEntry(new ZipEntry("lib/"));
        }
        functionArtifact = zip.toAbsolutePath();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return functionArtifact;
  }
}
