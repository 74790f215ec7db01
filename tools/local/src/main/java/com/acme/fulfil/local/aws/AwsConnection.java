package com.acme.fulfil.local.aws;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Where an AWS backend answers and who to be there: everything an SDK client, the AWS CLI or the
 * function's environment needs to reach the embedded stack, LocalStack or (with no endpoints) AWS.
 *
 * <p>Credentials are explicit and fixed for local backends: the function builds its own clients from
 * the default provider chain, so the same values must reach it through its environment and the SDK's
 * system properties rather than a developer's real profile.
 */
public record AwsConnection(
    String region,
    AwsBasicCredentials credentials,
    Optional<URI> sqsEndpoint,
    Optional<URI> dynamoDbEndpoint,
    Optional<URI> secretsManagerEndpoint) {

  /** The SDK's standard per-service endpoint variables, which the function reads like any SDK client. */
  public static final String ENDPOINT_SQS = "AWS_ENDPOINT_URL_SQS";
  public static final String ENDPOINT_DYNAMODB = "AWS_ENDPOINT_URL_DYNAMODB";
  public static final String ENDPOINT_SECRETS_MANAGER = "AWS_ENDPOINT_URL_SECRETS_MANAGER";

  public AwsConnection {
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(credentials, "credentials");
    Objects.requireNonNull(sqsEndpoint, "sqsEndpoint");
    Objects.requireNonNull(dynamoDbEndpoint, "dynamoDbEndpoint");
    Objects.requireNonNull(secretsManagerEndpoint, "secretsManagerEndpoint");
  }

  /**
   * The variables the function's environment needs to reach this backend. AWS_ACCESS_KEY_ID and
   * AWS_SECRET_ACCESS_KEY are included for a function started as a process; an in-process handler also
   * needs {@link #sdkSystemProperties()} because the SDK reads credentials from the process, not a map.
   */
  public Map<String, String> functionEnvironment() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("AWS_REGION", region);
    env.put("AWS_ACCESS_KEY_ID", credentials.accessKeyId());
    env.put("AWS_SECRET_ACCESS_KEY", credentials.secretAccessKey());
    sqsEndpoint.ifPresent(uri -> env.put(ENDPOINT_SQS, uri.toString()));
    dynamoDbEndpoint.ifPresent(uri -> env.put(ENDPOINT_DYNAMODB, uri.toString()));
    secretsManagerEndpoint.ifPresent(uri -> env.put(ENDPOINT_SECRETS_MANAGER, uri.toString()));
    return Map.copyOf(env);
  }

  /** The SDK's system properties for region and credentials (its default chains read these first). */
  public Map<String, String> sdkSystemProperties() {
    return Map.of(
        "aws.region", region,
        "aws.accessKeyId", credentials.accessKeyId(),
        "aws.secretAccessKey", credentials.secretAccessKey());
  }

  public SqsClient sqsClient() {
    var builder = SqsClient.builder()
        .region(Region.of(region))
        .credentialsProvider(StaticCredentialsProvider.create(credentials))
        .httpClientBuilder(UrlConnectionHttpClient.builder());
    sqsEndpoint.ifPresent(builder::endpointOverride);
    return builder.build();
  }

  public DynamoDbClient dynamoDbClient() {
    var builder = DynamoDbClient.builder()
        .region(Region.of(region))
        .credentialsProvider(StaticCredentialsProvider.create(credentials))
        .httpClientBuilder(UrlConnectionHttpClient.builder());
    dynamoDbEndpoint.ifPresent(builder::endpointOverride);
    return builder.build();
  }

  public SecretsManagerClient secretsManagerClient() {
    var builder = SecretsManagerClient.builder()
        .region(Region.of(region))
        .credentialsProvider(StaticCredentialsProvider.create(credentials))
        .httpClientBuilder(UrlConnectionHttpClient.builder());
    secretsManagerEndpoint.ifPresent(builder::endpointOverride);
    return builder.build();
  }
}
