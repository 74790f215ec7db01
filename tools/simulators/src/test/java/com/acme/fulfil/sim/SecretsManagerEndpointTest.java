package com.acme.fulfil.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClientBuilder;
import software.amazon.awssdk.services.secretsmanager.model.CreateSecretResponse;
import software.amazon.awssdk.services.secretsmanager.model.DescribeSecretResponse;
import software.amazon.awssdk.services.secretsmanager.model.GetSecretValueResponse;
import software.amazon.awssdk.services.secretsmanager.model.InternalServiceErrorException;
import software.amazon.awssdk.services.secretsmanager.model.PutSecretValueResponse;
import software.amazon.awssdk.services.secretsmanager.model.ResourceExistsException;
import software.amazon.awssdk.services.secretsmanager.model.ResourceNotFoundException;

/** The endpoint as the real AWS SDK v2 client sees it. */
class SecretsManagerEndpointTest {

  private SecretsManagerEndpoint endpoint;
  private SecretsManagerClient client;

  @BeforeEach
  void start() {
    endpoint = SecretsManagerEndpoint.start();
    client = clientFor(endpoint.endpoint()).build();
  }

  @AfterEach
  void stop() {
    client.close();
    endpoint.close();
  }

  @Test
  void createdSecretIsReadBackWithItsVersionAndLabels() {
    Instant before = Instant.now().minusSeconds(1);

    CreateSecretResponse created = client.createSecret(b -> b.name("fulfil/partner-api-key").secretString("key-one"));
    GetSecretValueResponse read = client.getSecretValue(b -> b.secretId("fulfil/partner-api-key"));

    assertThat(created.arn())
        .matches("arn:aws:secretsmanager:us-east-1:000000000000:secret:fulfil/partner-api-key-[A-Za-z0-9]{6}");
    assertThat(created.name()).isEqualTo("fulfil/partner-api-key");
    assertThat(created.versionId()).isNotBlank();
    assertThat(read.secretString()).isEqualTo("key-one");
    assertThat(read.arn()).isEqualTo(created.arn());
    assertThat(read.name()).isEqualTo("fulfil/partner-api-key");
    assertThat(read.versionId()).isEqualTo(created.versionId());
    assertThat(read.versionStages()).containsExactly("AWSCURRENT");
    assertThat(read.createdDate()).isBetween(before, Instant.now().plusSeconds(1));
  }

  @Test
  void putValueBecomesCurrentAndTheOldOnePrevious() {
    String first = client.createSecret(b -> b.name("key").secretString("key-one")).versionId();

    PutSecretValueResponse put = client.putSecretValue(b -> b.secretId("key").secretString("key-two"));

    assertThat(put.versionStages()).containsExactly("AWSCURRENT");
    assertThat(client.getSecretValue(b -> b.secretId("key")).secretString()).isEqualTo("key-two");
    GetSecretValueResponse previous = client.getSecretValue(b -> b.secretId("key").versionStage("AWSPREVIOUS"));
    assertThat(previous.secretString()).isEqualTo("key-one");
    assertThat(previous.versionId()).isEqualTo(first);
    assertThat(client.getSecretValue(b -> b.secretId("key").versionId(put.versionId())).secretString())
        .isEqualTo("key-two");
  }

  @Test
  void secretIsFoundByArnToo() {
    String arn = client.createSecret(b -> b.name("by-arn").secretString("v")).arn();

    assertThat(client.getSecretValue(b -> b.secretId(arn)).secretString()).isEqualTo("v");
  }

  @Test
  void describeListsTheLabelledVersions() {
    String first =
        client.createSecret(b -> b.name("described").secretString("one").description("partner key")).versionId();
    String second = client.putSecretValue(b -> b.secretId("described").secretString("two")).versionId();
    client.putSecretValue(b -> b.secretId("described").secretString("three"));

    DescribeSecretResponse described = client.describeSecret(b -> b.secretId("described"));

    assertThat(described.name()).isEqualTo("described");
    assertThat(described.description()).isEqualTo("partner key");
    assertThat(described.createdDate()).isNotNull();
    assertThat(described.lastChangedDate()).isNotNull();
    assertThat(described.versionIdsToStages()).hasSize(2).doesNotContainKey(first);
    assertThat(described.versionIdsToStages().get(second)).containsExactly("AWSPREVIOUS");
  }

  @Test
  void missingSecretRaisesResourceNotFound() {
    assertThatThrownBy(() -> client.getSecretValue(b -> b.secretId("no-such-secret")))
        .isInstanceOfSatisfying(ResourceNotFoundException.class, e -> {
          assertThat(e.statusCode()).isEqualTo(400);
          assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ResourceNotFoundException");
          assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("Secrets Manager can't find the specified secret.");
        });
  }

  @Test
  void creatingAnExistingSecretRaisesResourceExists() {
    client.createSecret(b -> b.name("twice").secretString("v"));

    assertThatThrownBy(() -> client.createSecret(b -> b.name("twice").secretString("v")))
        .isInstanceOf(ResourceExistsException.class);
  }

  @Test
  void javaApiPutIsWhatTheClientReads() {
    endpoint.putSecret("fulfil/partner-api-key", "key-one");
    endpoint.putSecret("fulfil/partner-api-key", "key-two");

    assertThat(client.getSecretValue(b -> b.secretId("fulfil/partner-api-key")).secretString()).isEqualTo("key-two");
    assertThat(client.getSecretValue(b -> b.secretId("fulfil/partner-api-key").versionStage("AWSPREVIOUS"))
            .secretString())
        .isEqualTo("key-one");
    assertThat(endpoint.requestCount("GetSecretValue")).isEqualTo(2);
  }

  @Test
  void injectedFailureReachesTheClientThenHeals() {
    endpoint.putSecret("key", "v");
    try (SecretsManagerClient noRetries = clientFor(endpoint.endpoint())
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .build()) {
      endpoint.failNext(1);

      assertThatThrownBy(() -> noRetries.getSecretValue(b -> b.secretId("key")))
          .isInstanceOfSatisfying(InternalServiceErrorException.class, e -> assertThat(e.statusCode()).isEqualTo(500));
      assertThat(noRetries.getSecretValue(b -> b.secretId("key")).secretString()).isEqualTo("v");
      assertThat(endpoint.requestCount("GetSecretValue")).isEqualTo(2);
    }
  }

  @Test
  void defaultClientRetriesThroughAShortFailure() {
    endpoint.putSecret("key", "v");
    endpoint.failNext(1);

    assertThat(client.getSecretValue(b -> b.secretId("key")).secretString()).isEqualTo("v");
    assertThat(endpoint.requestCount("GetSecretValue")).isEqualTo(2);
  }

  @Test
  void missingSecretHasTheExactWireShape() throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(endpoint.endpoint())
            .header("X-Amz-Target", "secretsmanager.GetSecretValue")
            .header("Content-Type", "application/x-amz-json-1.1")
            .POST(HttpRequest.BodyPublishers.ofString("{\"SecretId\":\"nope\"}"))
            .build(),
        HttpResponse.BodyHandlers.ofString());

    ObjectMapper json = new ObjectMapper();
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/x-amz-json-1.1");
    assertThat(json.readTree(response.body())).isEqualTo(json.readTree(
        "{\"__type\":\"ResourceNotFoundException\",\"message\":\"Secrets Manager can't find the specified secret.\"}"));
  }

  @Test
  void createdDateIsEpochSecondsNumber() throws Exception {
    endpoint.putSecret("dated", "v");

    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(endpoint.endpoint())
            .header("X-Amz-Target", "secretsmanager.GetSecretValue")
            .header("Content-Type", "application/x-amz-json-1.1")
            .POST(HttpRequest.BodyPublishers.ofString("{\"SecretId\":\"dated\"}"))
            .build(),
        HttpResponse.BodyHandlers.ofString());

    JsonNode created = new ObjectMapper().readTree(response.body()).path("CreatedDate");
    assertThat(created.isNumber()).isTrue();
    assertThat(created.asDouble()).isCloseTo(Instant.now().getEpochSecond(), within(60.0));
  }

  private static SecretsManagerClientBuilder clientFor(URI endpoint) {
    return SecretsManagerClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
        .httpClientBuilder(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(10)));
  }
}
