package com.acme.fulfil.infra;

import static com.acme.fulfil.infra.Synth.ref;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.settings.OnCallSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

class StackOutputsTest {
  private final Template template = Synth.defaults();

  @Test
  void outputsNameWhatOnCallAndTheProducerNeed() {
    template.hasOutput("QueueUrl", Map.of("Value",
        ref(Synth.logicalId(template, "AWS::SQS::Queue", Map.of("QueueName", "orders-to-fulfil")))));
    // Poison arrives on its first receive, sent by the function; only a good order's message uses up its receives.
    template.hasOutput("DlqUrl", Map.of("Value",
        ref(Synth.logicalId(template, "AWS::SQS::Queue", Map.of("QueueName", "orders-to-fulfil-dlq"))),
        "Description", "Orders that can never succeed (sent by the function on their first receive) and orders whose"
            + " receives ran out: ./fulfil-ops dlq, docs/runbook.md, \"The DLQ alarms\""));
    template.hasOutput("AlarmTopicArn", Map.of("Value",
        ref(Synth.logicalId(template, "AWS::SNS::Topic", Map.of("TopicName", "fulfil-order-alarms")))));
    template.hasOutput("IdempotencyTableName", Map.of("Value",
        ref(Synth.logicalId(template, "AWS::DynamoDB::Table", Map.of("TableName", "fulfil-order-idempotency")))));
    template.hasOutput("FunctionAliasArn", Map.of("Value",
        ref(Synth.logicalId(template, "AWS::Lambda::Alias", Map.of("Name", "live")))));
    // Where on-call's partner calls go.
    template.hasOutput("PartnerBaseUrl", Map.of("Value", Synth.PARTNER_BASE_URL));
    template.hasOutput("PartnerApiKeySecretArn", Map.of("Value", Synth.PARTNER_API_KEY_SECRET_ARN));
  }

  /** What ./fulfil-ops check compares with the committed infra/cdk.json: a -c value shows as deployed. */
  @Test
  @SuppressWarnings("unchecked")
  void theTemplateRecordsTheSettingsItWasDeployedWithCommandLineValuesIncluded() {
    Map<String, Object> metadata = (Map<String, Object>) Template.fromStack(Synth.stack(Map.of("maxConcurrency", "20")))
        .toJSON().get("Metadata");
    Map<String, String> deployedWith = (Map<String, String>) metadata.get(OnCallSettings.DEPLOYED_WITH);
    assertThat(deployedWith).containsEntry("maxConcurrency", "20").containsEntry("functionTimeoutSeconds", "300")
        .containsEntry("mappingEnabled", "true").containsEntry("partnerBaseUrl", Synth.PARTNER_BASE_URL)
        .containsKeys(OnCallSettings.ALL.toArray(String[]::new))
        .doesNotContainKeys(OnCallSettings.FOLLOWING.toArray(String[]::new)).doesNotContainKey("functionArtifact");
  }
}
