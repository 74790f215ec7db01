package com.acme.fulfil.ops;

import java.util.Map;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Clients for an account and region with no stack in it yet (the first deploy's {@code cutover}): the
 * caller's credentials and {@code AWS_REGION}, with the same endpoint overrides as {@link Stack}.
 */
record AccountClients(SqsClient sqs, LambdaClient lambda, CloudFormationClient cloudFormation) implements AutoCloseable {

  static AccountClients from(Map<String, String> env) {
    String regionName = env.getOrDefault("AWS_REGION", env.get("AWS_DEFAULT_REGION"));
    if (regionName == null || regionName.isBlank()) {
      throw new OpsException("no AWS region: set AWS_REGION to the region the old setup runs in");
    }
    Region region = Region.of(regionName);
    var credentials = Stack.credentials(env);
    return new AccountClients(
        Stack.build(SqsClient.builder(), region, credentials, Stack.endpoint(env, "AWS_ENDPOINT_URL_SQS")),
        Stack.build(LambdaClient.builder(), region, credentials, Stack.endpoint(env, "AWS_ENDPOINT_URL_LAMBDA")),
        Stack.build(CloudFormationClient.builder(), region, credentials,
            Stack.endpoint(env, "AWS_ENDPOINT_URL_CLOUDFORMATION")));
  }

  @Override
  public void close() {
    sqs.close();
    lambda.close();
    cloudFormation.close();
  }
}
