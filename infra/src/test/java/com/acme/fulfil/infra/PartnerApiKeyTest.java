package com.acme.fulfil.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/** The partner's key stays where on-call put it: the stack reads the committed secret and never creates one. */
class PartnerApiKeyTest {
  private final Template template = Synth.defaults();

  @Test
  void theCommittedSecretIsReadByExactlyItsArnAndNoneIsCreated() {
    template.resourceCountIs("AWS::SecretsManager::Secret", 0);
    template.hasResourceProperties("AWS::Lambda::Function", Map.of(
        "Environment", Map.of("Variables", Map.of("PARTNER_API_KEY_SECRET_ID", Synth.PARTNER_API_KEY_SECRET_ARN))));
    assertThat(Synth.roleStatements(template)).contains(Map.of(
        "Effect", "Allow", "Action", "secretsmanager:GetSecretValue", "Resource", Synth.PARTNER_API_KEY_SECRET_ARN));
    template.hasOutput("PartnerApiKeySecretArn", Map.of("Value", Synth.PARTNER_API_KEY_SECRET_ARN));
  }

  @Test
  void withoutTheSecretsArnSynthRefusesRatherThanCreateAPlaceholder() {
    assertThat(Synth.refusal(Map.of("partnerApiKeySecretArn", "")))
        .contains("partnerApiKeySecretArn is not set: commit the complete ARN of the secret holding the partner's API key",
            "no deploy can swap the partner's key for a placeholder");
  }
}
