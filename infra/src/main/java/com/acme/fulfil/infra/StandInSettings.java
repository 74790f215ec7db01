package com.acme.fulfil.infra;

import com.acme.fulfil.contract.settings.OnCallSettings;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The environment's settings as CI stands them in: AWS's documentation account and names that can never be anyone's
 * (RFC 2606 and RFC 6761 reserve {@code .example}, {@code .test}, {@code .invalid}, {@code .localhost} and
 * {@code example.com/net/org}). CI synthesizes with them to run cdk-nag, and says so with {@link #CI_SYNTH_ONLY};
 * any other synth refuses them, and an assembly CI made carries {@link #MARKER}, which the deploy workflow's
 * assembly check ({@code infra/deployable-assembly.sh}) refuses. So CI's stand-ins never reach a real deploy: not
 * committed by mistake, not in an assembly carried from one job to another.
 */
final class StandInSettings {
  /** The context flag CI's synth passes: stand-ins allowed, and the assembly marked as never to be deployed. */
  static final String CI_SYNTH_ONLY = "ciSynthOnly";
  /** The template metadata key that marks an assembly synthesized for CI only. */
  static final String MARKER = "FulfilOrderCiSynthOnly";
  /** The account AWS's documentation uses in its examples. */
  private static final String DOCUMENTATION_ACCOUNT = "123456789012";
  private static final Set<String> RESERVED_TOP_LEVEL = Set.of("example", "test", "invalid", "localhost");
  private static final Set<String> RESERVED_DOMAINS = Set.of("example.com", "example.net", "example.org");

  private StandInSettings() {}

  /** One sentence for each setting that holds a stand-in; none for settings a real deploy could use. */
  static List<String> in(DeploymentSettings settings) {
    List<String> found = new ArrayList<>();
    if (DOCUMENTATION_ACCOUNT.equals(settings.awsAccount())) {
      found.add(refusal(DeploymentSettings.AWS_ACCOUNT, settings.awsAccount(), "AWS's documentation account"));
    }
    if (settings.partnerApiKeySecretArn().contains(":" + DOCUMENTATION_ACCOUNT + ":")) {
      found.add(refusal(OnCallSettings.PARTNER_API_KEY_SECRET_ARN, settings.partnerApiKeySecretArn(), "in AWS's documentation account"));
    }
    if (reserved(URI.create(settings.partnerBaseUrl()).getHost())) {
      found.add(refusal(OnCallSettings.PARTNER_BASE_URL, settings.partnerBaseUrl(), "a name reserved for examples"));
    }
    if (reserved(settings.alarmEmail().substring(settings.alarmEmail().indexOf('@') + 1))) {
      found.add(refusal(OnCallSettings.ALARM_EMAIL, settings.alarmEmail(), "at a name reserved for examples: no page reaches anyone"));
    }
    return found;
  }

  private static boolean reserved(String host) {
    String name = host.toLowerCase(Locale.ROOT);
    return RESERVED_TOP_LEVEL.contains(name.substring(name.lastIndexOf('.') + 1))
        || RESERVED_DOMAINS.stream().anyMatch(domain -> name.equals(domain) || name.endsWith("." + domain));
  }

  private static String refusal(String key, String value, String what) {
    return key + " is " + value + ", " + what + ": a stand-in, which only CI's synth (-c " + CI_SYNTH_ONLY + "=true, never"
        + " deployed) may use. Commit the real value in infra/cdk.json.";
  }
}
