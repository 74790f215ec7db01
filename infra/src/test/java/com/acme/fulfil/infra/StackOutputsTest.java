package com.acme.fulfil.infra;

import static com.acme.fulfil.infra.Synth.ref;

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
            + " receives ran out: ./fulfil-ops dlq, runbook section 2"));
    template.hasOutput("AlarmTopicArn", Map.of("Value",
        ref(Synth.logicalId(template, "AWS::SNS::Topic", Map.of("TopicName", "fulfil-order-alarms")))));
    template.hasOutput("IdempotencyTableName", Map.of("Value",
        ref(Synth.logicalId(template, "AWS::DynamoDB::Table", Map.of("TableName", "fulfil-order-idempotency")))));
    template.hasOutput("FunctionAliasArn", Map.of("Value",
        ref(Synth.logicalId(template, "AWS::Lambda::Alias", Map.of("Name", "live")))));
    // What check compares the function's PARTNER_BASE_URL with, and where on-call's partner calls go.
    template.hasOutput("PartnerBaseUrl", Map.of("Value", Synth.PARTNER_BASE_URL));
    template.hasOutput("PartnerApiKeySecretArn", Map.of("Value", Synth.PARTNER_API_KEY_SECRET_ARN));
  }
}
