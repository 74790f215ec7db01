package com.acme.fulfil.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The first deploy into the account that runs the old setup adopts what that setup left under the stack's
 * names, with {@code cdk deploy --import-existing-resources} (docs/deploy.md, "First deploy: cutover from the
 * old setup"). CloudFormation imports a resource only with a static custom name and a DeletionPolicy of
 * Retain or RetainExceptOnCreate (AWS, "Import AWS resources into a CloudFormation stack automatically"); any
 * other resource whose name exists stops the deploy, which is what the old function must do until it is deleted.
 */
class FirstDeployImportTest {
  private static final Template TEMPLATE = Template.fromStack(Synth.defaultStack());
  private static final List<String> IMPORTABLE = List.of("Retain", "RetainExceptOnCreate");

  /** The queue and its orders, the DLQ the cutover creates beforehand, and the old function's log group. */
  @Test
  void whatTheCutoverAdoptsCanBeImported() {
    assertThat(deletionPolicy("AWS::SQS::Queue", "QueueName", "orders-to-fulfil")).isIn(IMPORTABLE);
    assertThat(deletionPolicy("AWS::SQS::Queue", "QueueName", "orders-to-fulfil-dlq")).isIn(IMPORTABLE);
    assertThat(deletionPolicy("AWS::Logs::LogGroup", "LogGroupName", "/aws/lambda/fulfil-order")).isIn(IMPORTABLE);
  }

  /** The old function must go before the deploy: imported, it would keep the old code and settings. */
  @Test
  void theFunctionIsNeverImported() {
    assertThat(deletionPolicy("AWS::Lambda::Function", "FunctionName", "fulfil-order")).isNotIn(IMPORTABLE);
  }

  private static String deletionPolicy(String type, String nameProperty, String name) {
    Map<String, Map<String, Object>> found = TEMPLATE.findResources(type, Map.of("Properties", Map.of(nameProperty, name)));
    assertThat(found).as("%s %s in the template", type, name).hasSize(1);
    return String.valueOf(found.values().iterator().next().get("DeletionPolicy"));
  }
}
