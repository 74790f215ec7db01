package com.acme.fulfil.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

class PartnerApiKeyTest {
  private static final String IMPORTED =
      "arn:aws:secretsmanager:eu-west-1:123456789012:secret:partner/api-key-AbC123";

  @Test
  void withoutAnArnTheStackCreatesARetainedPlaceholderSecret() {
    Template template = Synth.defaults();
    template.hasResource("AWS::SecretsManager::Secret", Map.of(
        "Properties", Map.of("Name", "fulfil-order/partner-api-key", "GenerateSecretString", Map.of()),
        "DeletionPolicy", "Retain"));
  }

  @Test
  void anImportedSecretIsReadByExactlyItsArnAndNotCreated() {
    Template template = Template.fromStack(Synth.stack(Map.of("partnerApiKeySecretArn", IMPORTED)));

    template.resourceCountIs("AWS::SecretsManager::Secret", 0);
    template.hasResourceProperties("AWS::Lambda::Function", Map.of(
        "Environment", Map.of("Variables", Map.of("PARTNER_API_KEY_SECRET_ID", IMPORTED))));
    assertThat(Synth.roleStatements(template)).contains(Map.of(
        "Effect", "Allow", "Action", "secretsmanager:GetSecretValue", "Resource", IMPORTED));
    template.hasOutput("PartnerApiKeySecretArn", Map.of("Value", IMPORTED));
  }
}
