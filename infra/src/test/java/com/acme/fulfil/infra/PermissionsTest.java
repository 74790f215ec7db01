package com.acme.fulfil.infra;

import static com.acme.fulfil.infra.Synth.arnOf;
import static com.acme.fulfil.infra.Synth.ref;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class PermissionsTest {
  private final Template template = Synth.defaults();

  @Test
  void functionMayTouchOnlyItsLogsTableSecretQueueAndSendToItsDlq() {
    String logs = Synth.logicalId(template, "AWS::Logs::LogGroup", Map.of("LogGroupName", "/aws/lambda/fulfil-order"));
    String table = Synth.logicalId(template, "AWS::DynamoDB::Table", Map.of("TableName", "fulfil-order-idempotency"));
    String queue = Synth.logicalId(template, "AWS::SQS::Queue", Map.of("QueueName", "orders-to-fulfil"));
    String dlq = Synth.logicalId(template, "AWS::SQS::Queue", Map.of("QueueName", "orders-to-fulfil-dlq"));

    assertThat(Synth.roleStatements(template)).containsExactlyInAnyOrder(
        Map.of("Effect", "Allow",
            "Action", List.of("logs:CreateLogStream", "logs:PutLogEvents"),
            "Resource", arnOf(logs)),
        // Exactly what OrderRecords calls: a PutItem could overwrite a booked order's record.
        Map.of("Effect", "Allow",
            "Action", List.of("dynamodb:GetItem", "dynamodb:UpdateItem"),
            "Resource", arnOf(table)),
        Map.of("Effect", "Allow",
            "Action", "secretsmanager:GetSecretValue",
            "Resource", Synth.PARTNER_API_KEY_SECRET_ARN),
        // A permanent failure is sent straight to the DLQ: send, nothing else, and only there.
        Map.of("Effect", "Allow",
            "Action", "sqs:SendMessage",
            "Resource", arnOf(dlq)),
        // ChangeMessageVisibility also serves the handler, which returns permanent failures at once.
        Map.of("Effect", "Allow",
            "Action", List.of("sqs:ChangeMessageVisibility", "sqs:DeleteMessage", "sqs:GetQueueAttributes",
                "sqs:GetQueueUrl", "sqs:ReceiveMessage"),
            "Resource", arnOf(queue)));
  }

  @Test
  void noStatementReachesEveryResource() {
    assertThat(Synth.roleStatements(template))
        .extracting(statement -> statement.get("Resource"))
        .doesNotContain("*")
        .allSatisfy(resource -> assertThat(resource.toString()).doesNotContain("*"));
  }

  @Test
  void roleCarriesNoManagedPolicyAndOnlyLambdaMayAssumeIt() {
    template.resourceCountIs("AWS::IAM::Role", 1);
    // Exact match: a ManagedPolicyArns entry (say AWSLambdaBasicExecutionRole) would fail it.
    template.hasResourceProperties("AWS::IAM::Role", Match.objectEquals(Map.of(
        "Description", Match.anyValue(),
        "AssumeRolePolicyDocument", Map.of(
            "Version", "2012-10-17",
            "Statement", List.of(Map.of(
                "Action", "sts:AssumeRole",
                "Effect", "Allow",
                "Principal", Map.of("Service", "lambda.amazonaws.com")))))));
  }
}
