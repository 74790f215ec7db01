package com.acme.fulfil.ops;

import com.acme.fulfil.contract.oncall.OnCallVariables;
import com.acme.fulfil.contract.settings.DeployedNames;
import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.contract.timing.TimingBudgetText;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.Output;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The deployed fulfil-order that a command works on: its names, the budget it was deployed from, and
 * clients for its services. In AWS the names come from the CloudFormation stack's outputs and the
 * function's configuration, with the caller's credentials and region, and the budget from infra/cdk.json;
 * against {@code ./run-local --serve} only when {@code FULFIL_OPS_STACK=local}, which it alone prints,
 * from the variables it prints ({@code QUEUE_URL}, {@code DLQ_URL}, {@code TABLE_NAME},
 * {@code SECRET_ARN}, {@code PARTNER_BASE_URL}, {@code FUNCTION_NAME}, {@code TIMING_BUDGET},
 * {@code MAPPING_MAX_CONCURRENCY} and the
 * {@code AWS_ENDPOINT_URL_*} endpoints), every one of which must be a loopback address. The runbook sets
 * some of the same names for AWS, so none of them alone may select the local stack. In AWS the SDK's
 * {@code AWS_ENDPOINT_URL} and {@code AWS_ENDPOINT_URL_<SERVICE>} variables are honoured, so a stack
 * deployed to an emulator works too.
 *
 * @param functionAliasArn what the event source mapping invokes; empty on the local stack, which has
 *     no Lambda service, mapping or alarms to ask
 * @param committed infra/cdk.json's settings; empty on the local stack
 * @param localMaxConcurrency the local mapping's, as {@code --serve} printed it; empty in AWS, where Lambda says
 */
record Stack(
    String description,
    String queueUrl,
    String dlqUrl,
    String table,
    String secretId,
    URI partnerBaseUrl,
    String functionName,
    Optional<String> functionAliasArn,
    Optional<String> alarmTopicArn,
    TimingBudget budget,
    Optional<CommittedSettings> committed,
    Optional<Integer> localMaxConcurrency,
    Clients aws) implements AutoCloseable {

  private static final List<String> LOCAL_ENDPOINTS =
      List.of("AWS_ENDPOINT_URL_SQS", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_SECRETS_MANAGER");

  /** The service clients, built once per command, closed with the stack. */
  record Clients(SqsClient sqs, DynamoDbClient dynamoDb, SecretsManagerClient secrets, Optional<LambdaClient> lambda,
      Optional<CloudWatchLogsClient> logs, Optional<CloudWatchClient> cloudWatch, Optional<SnsClient> sns,
      Optional<CloudFormationClient> cloudFormation) {}

  boolean local() {
    return functionAliasArn.isEmpty();
  }

  String queueArn() {
    return arnOf(queueUrl);
  }

  String dlqArn() {
    return arnOf(dlqUrl);
  }

  String logGroup() {
    return "/aws/lambda/" + functionName;
  }

  private String arnOf(String url) {
    return aws.sqs().getQueueAttributes(r -> r.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
        .attributes().get(QueueAttributeName.QUEUE_ARN);
  }

  /** @param stackName the CloudFormation stack (AWS only) */
  static Stack resolve(Map<String, String> env, String stackName) {
    String target = env.get(OnCallVariables.STACK);
    if (target == null) {
      return deployed(env, stackName);
    }
    if (!target.equals("local")) {
      throw new OpsException(OnCallVariables.STACK + " is '" + target + "': only ./run-local --serve sets it, to local;"
          + " unset it to work on the deployed stack");
    }
    return local(env);
  }

  private static Stack local(Map<String, String> env) {
    requireLoopback(env, OnCallVariables.QUEUE_URL);
    requireLoopback(env, OnCallVariables.DLQ_URL);
    requireLoopback(env, OnCallVariables.PARTNER_BASE_URL);
    LOCAL_ENDPOINTS.forEach(name -> requireLoopback(env, name));
    Region region = Region.of(env.getOrDefault("AWS_REGION", env.getOrDefault("AWS_DEFAULT_REGION", "us-east-1")));
    AwsCredentialsProvider credentials = credentials(env);
    Clients clients = new Clients(
        build(SqsClient.builder(), region, credentials, endpoint(env, "AWS_ENDPOINT_URL_SQS")),
        build(DynamoDbClient.builder(), region, credentials, endpoint(env, "AWS_ENDPOINT_URL_DYNAMODB")),
        build(SecretsManagerClient.builder(), region, credentials, endpoint(env, "AWS_ENDPOINT_URL_SECRETS_MANAGER")),
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    // The budget the local run created the stack from, as it printed it: one derived here from a time scale
    // missed the floors the local run keeps for real work (a 90 s visibility timeout taken for 60 s).
    TimingBudget budget = TimingBudgetText.read(required(env, OnCallVariables.TIMING_BUDGET));
    return new Stack("the local stack (" + env.get(OnCallVariables.QUEUE_URL) + ")", env.get(OnCallVariables.QUEUE_URL), required(env, OnCallVariables.DLQ_URL),
        required(env, OnCallVariables.TABLE_NAME), required(env, OnCallVariables.SECRET_ARN), URI.create(required(env, OnCallVariables.PARTNER_BASE_URL)),
        env.getOrDefault(OnCallVariables.FUNCTION_NAME, DeployedNames.FUNCTION), Optional.empty(), Optional.empty(),
        budget, Optional.empty(), Optional.of(maxConcurrency(env)), clients);
  }

  private static Stack deployed(Map<String, String> env, String stackName) {
    String regionName = env.getOrDefault("AWS_REGION", env.get("AWS_DEFAULT_REGION"));
    if (regionName == null || regionName.isBlank()) {
      throw new OpsException("no AWS region: set AWS_REGION to the stack's region (or, for ./run-local --serve,"
          + " paste the export lines it prints)");
    }
    CommittedSettings committed = CommittedSettings.from(env);
    Region region = Region.of(regionName);
    AwsCredentialsProvider credentials = credentials(env);
    Map<String, String> outputs;
    CloudFormationClient cloudFormation = build(CloudFormationClient.builder(), region, credentials,
        endpoint(env, "AWS_ENDPOINT_URL_CLOUDFORMATION"));
    try {
      outputs = cloudFormation.describeStacks(r -> r.stackName(stackName)).stacks().getFirst().outputs().stream()
          .collect(java.util.stream.Collectors.toMap(Output::outputKey, Output::outputValue));
    } catch (SdkException e) {
      cloudFormation.close();
      throw AwsErrors.explain(e, "the stack " + stackName + " in " + region);
    }
    String aliasArn = output(outputs, "FunctionAliasArn", stackName);
    LambdaClient lambda = build(LambdaClient.builder(), region, credentials, endpoint(env, "AWS_ENDPOINT_URL_LAMBDA"));
    Map<String, String> functionEnv = lambda.getFunctionConfiguration(r -> r.functionName(aliasArn)).environment().variables();
    Clients clients = new Clients(
        build(SqsClient.builder(), region, credentials, endpoint(env, "AWS_ENDPOINT_URL_SQS")),
        build(DynamoDbClient.builder(), region, credentials, endpoint(env, "AWS_ENDPOINT_URL_DYNAMODB")),
        build(SecretsManagerClient.builder(), region, credentials, endpoint(env, "AWS_ENDPOINT_URL_SECRETS_MANAGER")),
        Optional.of(lambda),
        Optional.of(build(CloudWatchLogsClient.builder(), region, credentials, endpoint(env, "AWS_ENDPOINT_URL_CLOUDWATCH_LOGS"))),
        Optional.of(build(CloudWatchClient.builder(), region, credentials, endpoint(env, "AWS_ENDPOINT_URL_CLOUDWATCH"))),
        Optional.of(build(SnsClient.builder(), region, credentials, endpoint(env, "AWS_ENDPOINT_URL_SNS"))),
        Optional.of(cloudFormation));
    // arn:aws:lambda:REGION:ACCOUNT:function:NAME:ALIAS
    String functionName = aliasArn.split(":")[6];
    // The partner the stack was deployed with, not whatever the function's variable says now: on-call's
    // commands send the API key there. A stack deployed before it had the output has only the variable.
    String partnerBaseUrl = outputs.getOrDefault("PartnerBaseUrl", functionEnv.get(FunctionEnvironment.PARTNER_BASE_URL));
    return new Stack("stack " + stackName + " in " + region, output(outputs, "QueueUrl", stackName),
        output(outputs, "DlqUrl", stackName), output(outputs, "IdempotencyTableName", stackName),
        output(outputs, "PartnerApiKeySecretArn", stackName), URI.create(partnerBaseUrl),
        functionName, Optional.of(aliasArn), Optional.of(output(outputs, "AlarmTopicArn", stackName)),
        committed.budget(), Optional.of(committed), Optional.empty(), clients);
  }

  private static String output(Map<String, String> outputs, String key, String stackName) {
    String value = outputs.get(key);
    if (value == null) {
      throw new OpsException("the stack " + stackName + " has no output " + key + ": is it fulfil-order's stack, deployed"
          + " from this repository?");
    }
    return value;
  }

  private static String required(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw new OpsException(OnCallVariables.STACK + " is local, so the local stack is meant, but " + name + " is not set:"
          + " paste every export line ./run-local --serve prints");
    }
    return value;
  }

  private static int maxConcurrency(Map<String, String> env) {
    String value = required(env, OnCallVariables.MAX_CONCURRENCY);
    try {
      int concurrency = Integer.parseInt(value.strip());
      if (concurrency > 0) {
        return concurrency;
      }
    } catch (NumberFormatException e) {
      // refused below, with the variable's name
    }
    throw new OpsException(OnCallVariables.MAX_CONCURRENCY + " is '" + value + "', not a positive whole number:"
        + " paste every export line ./run-local --serve prints");
  }

  /** The local stack runs on this computer: an address elsewhere would be someone's real AWS, or worse. */
  private static void requireLoopback(Map<String, String> env, String name) {
    String value = required(env, name);
    String host = URI.create(value).getHost();
    boolean loopback;
    try {
      loopback = host != null && InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      loopback = false;
    }
    if (!loopback) {
      throw new OpsException(name + " is " + value + ", not a loopback address: the local stack (" + OnCallVariables.STACK
          + "=local) only ever runs on localhost. Unset " + OnCallVariables.STACK + " to work on the deployed stack");
    }
  }

  static Optional<URI> endpoint(Map<String, String> env, String name) {
    return Optional.ofNullable(env.getOrDefault(name, env.get("AWS_ENDPOINT_URL"))).map(URI::create);
  }

  static AwsCredentialsProvider credentials(Map<String, String> env) {
    String key = env.get("AWS_ACCESS_KEY_ID");
    String secret = env.get("AWS_SECRET_ACCESS_KEY");
    if (key != null && secret != null && env.get("AWS_SESSION_TOKEN") == null) {
      return StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret));
    }
    return DefaultCredentialsProvider.builder().build();
  }

  static <C, B extends AwsClientBuilder<B, C>> C build(B builder, Region region, AwsCredentialsProvider credentials,
      Optional<URI> endpoint) {
    builder.region(region).credentialsProvider(credentials);
    endpoint.ifPresent(builder::endpointOverride);
    if (builder instanceof software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder<?, ?> sync) {
      sync.httpClientBuilder(UrlConnectionHttpClient.builder());
    }
    return builder.build();
  }

  @Override
  public void close() {
    aws.sqs().close();
    aws.dynamoDb().close();
    aws.secrets().close();
    aws.lambda().ifPresent(LambdaClient::close);
    aws.logs().ifPresent(CloudWatchLogsClient::close);
    aws.cloudWatch().ifPresent(CloudWatchClient::close);
    aws.sns().ifPresent(SnsClient::close);
    aws.cloudFormation().ifPresent(CloudFormationClient::close);
  }
}
