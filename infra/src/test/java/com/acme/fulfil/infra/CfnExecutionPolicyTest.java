package com.acme.fulfil.infra;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;

/**
 * infra/cfn-execution-policy.template.json, the policy CloudFormation deploys the stack with in place of CDK's
 * default AdministratorAccess ({@code cdk bootstrap --cloudformation-execution-policies}), against the synthesized
 * stack: every resource type in the template is one whose CloudFormation handler's calls are listed here, each of
 * those calls is allowed on that very resource (its ARN, from its name in the template), the function's code can be
 * read from where CDK's asset publishing put it, and nothing more: no action the stack's types do not need, no
 * wildcard action, IAM on the stack's roles only (not the deploy or on-call role), passed to Lambda only, and every
 * resource named save where the action cannot be scoped.
 *
 * <p>What each type's handler calls ({@link #HANDLER_CALLS}) is the create, read, update and delete calls of that
 * type for the properties this stack sets, as the registry's schemas list them under "handlers"; the list was
 * written without an account to ask the registry ({@code aws cloudformation describe-type --type RESOURCE
 * --type-name TYPE}), so the first deploy with this policy is what proves it, and a refusal there names the action
 * to add. A new resource type fails {@link #everyResourceTypeOfTheStackIsOneThePolicyWasWrittenFor} until it is
 * added here and to the policy.
 */
class CfnExecutionPolicyTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String QUALIFIER = "hnb659fds";

  /** What CloudFormation calls to create, read, update and delete each type, as this stack sets it. */
  private static final Map<String, List<String>> HANDLER_CALLS = Map.ofEntries(
      entry("AWS::SQS::Queue", List.of("sqs:CreateQueue", "sqs:DeleteQueue", "sqs:GetQueueAttributes", "sqs:GetQueueUrl",
          "sqs:ListQueueTags", "sqs:SetQueueAttributes", "sqs:TagQueue", "sqs:UntagQueue")),
      entry("AWS::SQS::QueuePolicy", List.of("sqs:GetQueueAttributes", "sqs:SetQueueAttributes")),
      entry("AWS::DynamoDB::Table", List.of("dynamodb:CreateTable", "dynamodb:DeleteTable", "dynamodb:DescribeContinuousBackups",
          "dynamodb:DescribeContributorInsights", "dynamodb:DescribeKinesisStreamingDestination", "dynamodb:DescribeTable",
          "dynamodb:DescribeTimeToLive", "dynamodb:GetResourcePolicy", "dynamodb:ListTagsOfResource", "dynamodb:TagResource",
          "dynamodb:UntagResource", "dynamodb:UpdateContinuousBackups", "dynamodb:UpdateTable", "dynamodb:UpdateTimeToLive")),
      entry("AWS::IAM::Role", List.of("iam:CreateRole", "iam:DeleteRole", "iam:GetRole", "iam:ListAttachedRolePolicies",
          "iam:ListRolePolicies", "iam:TagRole", "iam:UntagRole", "iam:UpdateAssumeRolePolicy", "iam:UpdateRoleDescription")),
      entry("AWS::IAM::Policy", List.of("iam:DeleteRolePolicy", "iam:GetRolePolicy", "iam:PutRolePolicy")),
      entry("AWS::Lambda::Function", List.of("lambda:CreateFunction", "lambda:DeleteFunction", "lambda:DeleteFunctionConcurrency",
          "lambda:GetFunction", "lambda:GetFunctionCodeSigningConfig", "lambda:GetFunctionConfiguration",
          "lambda:GetRuntimeManagementConfig", "lambda:ListTags", "lambda:PutFunctionConcurrency", "lambda:TagResource",
          "lambda:UntagResource", "lambda:UpdateFunctionCode", "lambda:UpdateFunctionConfiguration")),
      entry("AWS::Lambda::Version", List.of("lambda:DeleteFunction", "lambda:GetFunctionConfiguration",
          "lambda:ListVersionsByFunction", "lambda:PublishVersion")),
      entry("AWS::Lambda::Alias", List.of("lambda:CreateAlias", "lambda:DeleteAlias", "lambda:GetAlias", "lambda:UpdateAlias")),
      entry("AWS::Lambda::EventSourceMapping", List.of("lambda:CreateEventSourceMapping", "lambda:DeleteEventSourceMapping",
          "lambda:GetEventSourceMapping", "lambda:UpdateEventSourceMapping")),
      entry("AWS::Logs::LogGroup", List.of("logs:CreateLogGroup", "logs:DeleteLogGroup", "logs:DeleteRetentionPolicy",
          "logs:DescribeLogGroups", "logs:ListTagsForResource", "logs:PutRetentionPolicy", "logs:TagResource", "logs:UntagResource")),
      entry("AWS::SNS::Topic", List.of("sns:CreateTopic", "sns:DeleteTopic", "sns:GetTopicAttributes",
          "sns:ListSubscriptionsByTopic", "sns:ListTagsForResource", "sns:SetTopicAttributes", "sns:TagResource",
          "sns:UntagResource")),
      entry("AWS::SNS::TopicPolicy", List.of("sns:GetTopicAttributes", "sns:SetTopicAttributes")),
      entry("AWS::SNS::Subscription", List.of("sns:GetSubscriptionAttributes", "sns:ListSubscriptionsByTopic",
          "sns:SetSubscriptionAttributes", "sns:Subscribe", "sns:Unsubscribe")),
      entry("AWS::CloudWatch::Alarm", List.of("cloudwatch:DeleteAlarms", "cloudwatch:DescribeAlarms",
          "cloudwatch:ListTagsForResource", "cloudwatch:PutMetricAlarm", "cloudwatch:TagResource", "cloudwatch:UntagResource")));
  /** Lambda reads a function's code from S3 with the caller's permissions when it creates or updates the function. */
  private static final List<String> READ_CODE = List.of("s3:GetObject", "s3:GetObjectVersion");
  /**
   * The actions the service authorization reference lists with no resource type, so only "*" grants them:
   * CreateEventSourceMapping is then narrowed by its lambda:FunctionArn condition, DescribeLogGroups only lists.
   */
  private static final Set<String> UNSCOPED = Set.of("lambda:CreateEventSourceMapping", "logs:DescribeLogGroups");

  private static JsonNode template;
  private static JsonNode assets;
  private static String account;
  private static String region;
  private static List<Statement> policy;

  /** One Allow statement, its Fn::Sub values resolved for the stack's account and region. */
  record Statement(String sid, List<String> actions, List<String> resources, JsonNode condition) {
    boolean allows(String action, String resource) {
      return actions.stream().anyMatch(a -> a.equalsIgnoreCase(action)) && resources.stream().anyMatch(r -> glob(r).matcher(resource).matches());
    }
  }

  @BeforeAll
  static void synthesize() throws IOException {
    FulfilOrderStack stack = Synth.defaultStack();
    account = stack.getAccount();
    region = stack.getRegion();
    Path assembly = Path.of(((App) stack.getNode().getRoot()).synth().getDirectory());
    template = JSON.readTree(assembly.resolve("fulfil-order.template.json").toFile());
    assets = JSON.readTree(assembly.resolve("fulfil-order.assets.json").toFile());
    policy = read(JSON.readTree(Path.of("cfn-execution-policy.template.json").toFile()));
  }

  @Test
  void everyResourceTypeOfTheStackIsOneThePolicyWasWrittenFor() {
    assertThat(HANDLER_CALLS).as("resource types whose handlers' calls this test and the policy know")
        .containsKeys(types().toArray(String[]::new));
  }

  /** Each resource of the template, by the ARN its name gives it, may have every call of its type's handler. */
  @Test
  void everyCallOfEveryResourcesHandlerIsAllowedOnThatResource() {
    List<String> refused = new ArrayList<>();
    template.path("Resources").properties().forEach(resource -> {
      String type = resource.getValue().path("Type").asText();
      for (String arn : arns(resource.getKey(), resource.getValue())) {
        for (String action : HANDLER_CALLS.getOrDefault(type, List.of())) {
          if (!allowed(action, UNSCOPED.contains(action) ? "*" : arn)) {
            refused.add(type + " " + resource.getKey() + ": " + action + " on " + arn);
          }
        }
      }
    });
    assertThat(refused).as("calls the policy does not allow").isEmpty();
  }

  /**
   * The function's code is where CDK's asset publishing put it (the bootstrap's file-publishing role uploads it to
   * the staging bucket), and CloudFormation, creating the function, may read it there and nowhere else in S3.
   */
  @Test
  void theFunctionsCodeIsReadFromWhereTheBootstrapsAssetPublishingPutIt() {
    JsonNode code = resourcesOf("AWS::Lambda::Function").getFirst().at("/Properties/Code");
    String bucket = "cdk-" + QUALIFIER + "-assets-" + account + "-" + region;
    assertThat(code.path("S3Bucket").asText()).isEqualTo(bucket);
    JsonNode published = StreamSupport.stream(assets.path("files").spliterator(), false)
        .flatMap(file -> StreamSupport.stream(file.path("destinations").spliterator(), false))
        .filter(destination -> destination.path("objectKey").asText().equals(code.path("S3Key").asText()))
        .findFirst().orElseThrow();
    assertThat(published.path("bucketName").asText()).isEqualTo(bucket);
    assertThat(published.path("assumeRoleArn").asText()).endsWith(":role/cdk-" + QUALIFIER + "-file-publishing-role-" + account + "-" + region);
    String object = "arn:aws:s3:::" + bucket + "/" + code.path("S3Key").asText();
    assertThat(READ_CODE).allMatch(action -> allowed(action, object));
    assertThat(allowed("s3:GetObject", "arn:aws:s3:::some-other-bucket/" + code.path("S3Key").asText())).isFalse();
  }

  /** No action beyond what the stack's types and its code need, none by wildcard, none on every resource but the unscopable. */
  @Test
  void thePolicyGrantsNothingTheStackDoesNotNeed() {
    Set<String> needed = new TreeSet<>(READ_CODE);
    types().forEach(type -> needed.addAll(HANDLER_CALLS.getOrDefault(type, List.of())));
    needed.add("iam:PassRole");
    Set<String> granted = policy.stream().flatMap(s -> s.actions().stream()).collect(Collectors.toCollection(TreeSet::new));
    assertThat(granted).as("actions granted").noneMatch(action -> action.contains("*")).isSubsetOf(needed);
    assertThat(policy).as("statements on every resource").filteredOn(s -> s.resources().contains("*"))
        .allSatisfy(s -> {
          assertThat(s.actions()).isSubsetOf(UNSCOPED);
          assertThat(s.actions().contains("lambda:CreateEventSourceMapping")).isEqualTo(!s.condition().isMissingNode());
        });
  }

  /** IAM only on the stack's roles, and a role passed to Lambda only: no other role, no user, no policy. */
  @Test
  void iamIsAllowedOnTheStacksRolesOnlyAndARoleIsPassedToLambdaOnly() {
    // The names CloudFormation gives the stack's roles (STACK-LOGICALID-RANDOM, the logical ids of FulfilOrder's constructs):
    // not the deploy role or on call's, whose names also begin fulfil-order-.
    String stackRoles = "arn:aws:iam::" + account + ":role/fulfil-order-FulfilOrder*";
    assertThat(policy).filteredOn(s -> s.actions().stream().anyMatch(a -> a.startsWith("iam:")))
        .isNotEmpty()
        .allSatisfy(s -> assertThat(s.resources()).containsOnly(stackRoles));
    Statement passRole = policy.stream().filter(s -> s.actions().contains("iam:PassRole")).findFirst().orElseThrow();
    assertThat(passRole.actions()).containsExactly("iam:PassRole");
    assertThat(passRole.condition().at("/StringEquals/iam:PassedToService").asText()).isEqualTo("lambda.amazonaws.com");
    assertThat(allowed("iam:CreateRole", "arn:aws:iam::" + account + ":role/Admin")).isFalse();
    assertThat(allowed("iam:CreateUser", "arn:aws:iam::" + account + ":user/fulfil-order-x")).isFalse();
    for (String otherRole : List.of("fulfil-order-deploy-role", "fulfil-order-oncall")) {
      assertThat(allowed("iam:UpdateAssumeRolePolicy", "arn:aws:iam::" + account + ":role/" + otherRole)).as(otherRole).isFalse();
      assertThat(allowed("iam:PutRolePolicy", "arn:aws:iam::" + account + ":role/" + otherRole)).as(otherRole).isFalse();
    }
  }

  private static boolean allowed(String action, String resource) {
    return policy.stream().anyMatch(statement -> statement.allows(action, resource));
  }

  private static Set<String> types() {
    return StreamSupport.stream(template.path("Resources").spliterator(), false).map(r -> r.path("Type").asText())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static List<JsonNode> resourcesOf(String type) {
    return StreamSupport.stream(template.path("Resources").spliterator(), false).filter(r -> r.path("Type").asText().equals(type))
        .toList();
  }

  /** The ARNs a resource's handler acts on, from its name in the template (or the names CloudFormation gives). */
  private static List<String> arns(String logicalId, JsonNode resource) {
    JsonNode p = resource.path("Properties");
    String prefix = ":" + region + ":" + account + ":";
    return switch (resource.path("Type").asText()) {
      case "AWS::SQS::Queue" -> List.of("arn:aws:sqs" + prefix + p.path("QueueName").asText());
      case "AWS::SQS::QueuePolicy" -> refs(p.path("Queues")).stream().flatMap(id -> arns(id, resource(id)).stream()).toList();
      case "AWS::DynamoDB::Table" -> List.of("arn:aws:dynamodb" + prefix + "table/" + p.path("TableName").asText());
      // CloudFormation names a role that has no RoleName STACK-LOGICALID-RANDOM.
      case "AWS::IAM::Role" -> List.of("arn:aws:iam::" + account + ":role/"
          + (p.has("RoleName") ? p.path("RoleName").asText() : "fulfil-order-" + logicalId + "-AbCdEf123456"));
      case "AWS::IAM::Policy" -> refs(p.path("Roles")).stream().flatMap(id -> arns(id, resource(id)).stream()).toList();
      case "AWS::Lambda::Function" -> List.of("arn:aws:lambda" + prefix + "function:" + p.path("FunctionName").asText());
      case "AWS::Lambda::Version" -> List.of(function(p) + ":1");
      case "AWS::Lambda::Alias" -> List.of(function(p) + ":" + p.path("Name").asText());
      case "AWS::Lambda::EventSourceMapping" -> List.of("arn:aws:lambda" + prefix + "event-source-mapping:a1b2c3d4-5678-90ab-cdef-11111EXAMPLE");
      case "AWS::Logs::LogGroup" -> List.of("arn:aws:logs" + prefix + "log-group:" + p.path("LogGroupName").asText() + ":*");
      case "AWS::SNS::Topic" -> List.of("arn:aws:sns" + prefix + p.path("TopicName").asText());
      case "AWS::SNS::TopicPolicy" -> refs(p.path("Topics")).stream().flatMap(id -> arns(id, resource(id)).stream()).toList();
      case "AWS::SNS::Subscription" -> refs(p.path("TopicArn")).stream().flatMap(id -> arns(id, resource(id)).stream()).toList();
      case "AWS::CloudWatch::Alarm" -> List.of("arn:aws:cloudwatch" + prefix + "alarm:" + p.path("AlarmName").asText());
      default -> List.of("a resource this test does not know: " + logicalId);
    };
  }

  /** The function a version or alias belongs to: its FunctionName is a Ref to the function. */
  private static String function(JsonNode properties) {
    String id = refs(properties.path("FunctionName")).getFirst();
    return arns(id, resource(id)).getFirst();
  }

  private static JsonNode resource(String logicalId) {
    return template.path("Resources").path(logicalId);
  }

  /** The logical ids a value refers to with Ref, whether one value or a list. */
  private static List<String> refs(JsonNode value) {
    List<JsonNode> values = value.isArray() ? IntStream.range(0, value.size()).mapToObj(value::get).toList() : List.of(value);
    List<String> ids = values.stream().map(v -> v.path("Ref").asText()).filter(id -> !id.isEmpty()).toList();
    assertThat(ids).as("Refs in %s", value).isNotEmpty();
    return ids;
  }

  private static List<Statement> read(JsonNode policyTemplate) {
    JsonNode statements = policyTemplate.at("/Resources/ExecutionPolicy/Properties/PolicyDocument/Statement");
    List<Statement> read = new ArrayList<>();
    for (JsonNode statement : statements) {
      assertThat(statement.path("Effect").asText()).isEqualTo("Allow");
      read.add(new Statement(statement.path("Sid").asText(), values(statement.path("Action")),
          values(statement.path("Resource")), statement.path("Condition")));
    }
    return read;
  }

  private static List<String> values(JsonNode node) {
    List<JsonNode> nodes = node.isArray() ? IntStream.range(0, node.size()).mapToObj(node::get).toList() : List.of(node);
    return nodes.stream().map(CfnExecutionPolicyTest::resolve).toList();
  }

  /** A literal, or a Fn::Sub for the stack's partition, region and account and the bootstrap's default qualifier. */
  private static String resolve(JsonNode value) {
    String text = value.has("Fn::Sub") ? value.path("Fn::Sub").asText() : value.asText();
    return text.replace("${AWS::Partition}", "aws").replace("${AWS::Region}", region).replace("${AWS::AccountId}", account)
        .replace("${CdkQualifier}", QUALIFIER);
  }

  private static Pattern glob(String pattern) {
    return Pattern.compile(Arrays.stream(pattern.split("((?<=\\*)|(?=\\*))"))
        .map(part -> part.equals("*") ? ".*" : Pattern.quote(part)).collect(Collectors.joining()));
  }
}
