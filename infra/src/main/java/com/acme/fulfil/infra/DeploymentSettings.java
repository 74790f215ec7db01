package com.acme.fulfil.infra;

import com.acme.fulfil.contract.settings.OnCallSettings;
import com.acme.fulfil.contract.settings.Settings;
import com.acme.fulfil.contract.timing.Capacity;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What the stack needs besides the timing numbers: where the partner is, which key it takes, who
 * hears the alarms, whether the mapping runs, how hard the partner may be pushed, the function's
 * artifact, and whether Lambda traces the function with X-Ray. Read once from CDK context; a value that
 * cannot work, or one on-call relies on that is missing, fails {@code cdk synth} here instead of a
 * deploy undoing it in AWS.
 *
 * @param partnerApiKeySecretArn the secret on-call put the partner's key in: the stack never creates one,
 *     so no deploy can swap the key for a placeholder
 * @param alarmEmail subscribed to the alarm topic on every deploy: a deploy without it would remove the subscription
 * @param mappingEnabled false while on-call keeps the mapping paused: a deploy then leaves it paused
 * @param maxConcurrency the mapping's cap on concurrent invocations, the partner's protection: it sees at most
 *     maxConcurrency x min(batchSize, recordConcurrency) calls at once (10 in cdk.json, agreed with the partner)
 * @param functionMemoryMb an invocation spends nearly all its time waiting on the partner, and Lambda bills
 *     that wait by memory: 512 MB (cdk.json) halves the GB-seconds of 1,024 MB and still restores a SnapStart
 *     snapshot in about 0.5 s (`tools/benchmarks/run cold-start --memory MB`)
 * @param logLevel the function's FULFIL_LOG_LEVEL; the mapping invokes the published version behind
 *     {@code live}, so only a deploy changes it
 * @param activeTracing Lambda's active tracing (X-Ray): off unless asked for. Every traced invocation
 *     costs money, and the function's own record of an order's trace (its log lines' {@code trace_id},
 *     the partner's {@code traceparent}) needs none of it; no X-Ray SDK or agent is in the artifact
 *     either way, so X-Ray sees the invocation and its initialisation only.
 * @param awsAccount the one account the stack deploys to: the stack's environment, so that {@code cdk deploy}
 *     with credentials for any other account stops, and the deploy workflow refuses an assembly for another
 * @param awsRegion the one region it deploys to, likewise
 */
public record DeploymentSettings(
    String partnerBaseUrl,
    String partnerApiKeySecretArn,
    String alarmEmail,
    boolean mappingEnabled,
    int maxConcurrency,
    int functionMemoryMb,
    String logLevel,
    Path functionArtifact,
    boolean activeTracing,
    String awsAccount,
    String awsRegion) {

  /** The context keys of the target account and region, committed in infra/cdk.json. */
  public static final String AWS_ACCOUNT = "awsAccount";
  public static final String AWS_REGION = "awsRegion";

  /** The event source mapping's maximum concurrency accepts 2 to 1,000. */
  private static final int MAX_MAPPING_CONCURRENCY = 1000;
  /** Relative to infra/, where {@code cdk} runs. */
  private static final String DEFAULT_FUNCTION_ARTIFACT = "../function/target/fulfil-order.zip";

  private static final Pattern COMPLETE_SECRET_ARN =
      Pattern.compile("arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\\d{12}:secret:.+-[A-Za-z0-9]{6}");

  public DeploymentSettings {
    List<String> problems = new ArrayList<>();
    if (partnerBaseUrl == null) {
      problems.add(notCommitted(OnCallSettings.PARTNER_BASE_URL, "the partner's https:// base URL",
          "the partner's API key goes with every request to it, so it comes from a reviewed commit, never from whoever deploys"));
    } else if (!isHttpsUrl(partnerBaseUrl)) {
      problems.add("partnerBaseUrl is '" + partnerBaseUrl + "' but must be an https:// URL with a host:"
          + " the function sends the partner API key with every call.");
    }
    if (partnerApiKeySecretArn == null) {
      problems.add(notCommitted(OnCallSettings.PARTNER_API_KEY_SECRET_ARN,
          "the complete ARN of the secret holding the partner's API key (docs/deploy.md, first deploy)",
          "the stack never creates the secret, so no deploy can swap the partner's key for a placeholder"));
    } else if (!COMPLETE_SECRET_ARN.matcher(partnerApiKeySecretArn).matches()) {
      problems.add("partnerApiKeySecretArn is '" + partnerApiKeySecretArn + "' but must be a complete secret ARN"
          + " (arn:aws:secretsmanager:<region>:<account>:secret:<name>-<6 characters>, as"
          + " aws secretsmanager describe-secret prints it): the function is allowed to read exactly that ARN.");
    }
    if (alarmEmail == null) {
      problems.add(notCommitted(OnCallSettings.ALARM_EMAIL, "on-call's address",
          "a deploy without it would remove the alarm topic's subscription, and the alarms would reach no one"));
    } else if (!alarmEmail.matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+")) {
      problems.add("alarmEmail is '" + alarmEmail + "' but must be one e-mail address.");
    }
    if (maxConcurrency < 2 || maxConcurrency > MAX_MAPPING_CONCURRENCY - Capacity.RESERVED_HEADROOM) {
      problems.add("maxConcurrency is " + maxConcurrency + " but the event source mapping accepts 2 to " + MAX_MAPPING_CONCURRENCY
          + ", and the function reserves " + Capacity.RESERVED_HEADROOM + " more than it (room for a test invoke beside the"
          + " mapping), so at most " + (MAX_MAPPING_CONCURRENCY - Capacity.RESERVED_HEADROOM) + "; it caps the partner"
          + " calls in flight at maxConcurrency x min(batchSize, recordConcurrency).");
    }
    if (functionMemoryMb < 128 || functionMemoryMb > 10240) {
      problems.add("functionMemoryMb is " + functionMemoryMb + " but Lambda accepts 128 to 10240.");
    }
    if (!OnCallSettings.LOG_LEVELS.contains(logLevel)) {
      problems.add("logLevel is '" + logLevel + "' but must be one of " + String.join(", ", OnCallSettings.LOG_LEVELS) + ".");
    }
    if (functionArtifact == null || !Files.isRegularFile(functionArtifact)) {
      problems.add("the function's artifact " + functionArtifact + " does not exist: run ./mvnw package first"
          + " (from the repository root; it builds function/target/fulfil-order.zip), or point"
          + " -c functionArtifact=<path> at a built one.");
    }
    if (awsAccount == null) {
      problems.add(notCommitted(AWS_ACCOUNT, "the 12-digit AWS account the stack deploys to",
          "a deploy with credentials for any other account is then refused"));
    } else if (!awsAccount.matches("\\d{12}")) {
      problems.add("awsAccount is '" + awsAccount + "' but must be a 12-digit AWS account id.");
    }
    if (awsRegion == null) {
      problems.add(notCommitted(AWS_REGION, "the region the stack deploys to (eu-west-1, say)",
          "a deploy to any other region is then refused"));
    } else if (!awsRegion.matches("[a-z]{2}(-[a-z]+)+-\\d+")) {
      problems.add("awsRegion is '" + awsRegion + "' but must be an AWS region code such as eu-west-1.");
    }
    if (!problems.isEmpty()) {
      throw new InvalidDeploymentSettingsException(problems);
    }
  }

  /** The settings from CDK context ({@code -c name=value} or cdk.json); relative paths are from the working directory. */
  public static DeploymentSettings fromContext(Function<String, String> context) {
    Settings s = new Settings(context);
    return new DeploymentSettings(
        s.text(OnCallSettings.PARTNER_BASE_URL).orElse(null),
        s.text(OnCallSettings.PARTNER_API_KEY_SECRET_ARN).orElse(null),
        s.text(OnCallSettings.ALARM_EMAIL).orElse(null),
        s.flag(OnCallSettings.MAPPING_ENABLED).orElseThrow(() -> notInCdkJson(OnCallSettings.MAPPING_ENABLED)),
        s.integer(OnCallSettings.MAX_CONCURRENCY).orElseThrow(() -> notInCdkJson(OnCallSettings.MAX_CONCURRENCY)),
        s.integer(OnCallSettings.FUNCTION_MEMORY_MB).orElseThrow(() -> notInCdkJson(OnCallSettings.FUNCTION_MEMORY_MB)),
        s.text(OnCallSettings.LOG_LEVEL).orElseThrow(() -> notInCdkJson(OnCallSettings.LOG_LEVEL)),
        Path.of(s.text("functionArtifact").orElse(DEFAULT_FUNCTION_ARTIFACT)).toAbsolutePath().normalize(),
        s.flag(OnCallSettings.ACTIVE_TRACING).orElseThrow(() -> notInCdkJson(OnCallSettings.ACTIVE_TRACING)),
        s.text(AWS_ACCOUNT).orElse(null),
        s.text(AWS_REGION).orElse(null));
  }

  private static String notCommitted(String key, String what, String why) {
    return key + " is not set: commit " + what + " in infra/cdk.json's context, where every deploy reads it: " + why + ".";
  }

  private static IllegalArgumentException notInCdkJson(String key) {
    return new IllegalArgumentException(key + " is not set: it belongs in infra/cdk.json's context, where every"
        + " deploy and ./fulfil-ops check read it.");
  }

  private static boolean isHttpsUrl(String value) {
    try {
      URI uri = new URI(value);
      return "https".equals(uri.getScheme()) && uri.getHost() != null;
    } catch (URISyntaxException e) {
      return false;
    }
  }
}
