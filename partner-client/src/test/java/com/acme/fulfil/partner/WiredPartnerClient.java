package com.acme.fulfil.partner;

import com.acme.fulfil.secrets.ApiKeySource;
import com.acme.fulfil.sim.SecretsManagerEndpoint;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import okhttp3.OkHttpClient;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The production {@link PartnerClient} (its own HTTP client, its key read from a Secrets Manager
 * endpoint) wired to a {@link WirePartner} on a raw loopback socket, for the tests that count what
 * reaches the wire.
 */
record WiredPartnerClient(WirePartner wire, SecretsManagerEndpoint secrets, SecretsManagerClient secretsClient,
    OkHttpClient http, PartnerClient client) implements AutoCloseable {

  static WiredPartnerClient start() {
    WirePartner wire = WirePartner.start();
    SecretsManagerEndpoint secrets = SecretsManagerEndpoint.start();
    secrets.putSecret("key", "key-1");
    SecretsManagerClient secretsClient = SecretsManagerClient.builder().endpointOverride(secrets.endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
        .httpClient(UrlConnectionHttpClient.create()).build();
    OkHttpClient http = PartnerClient.httpClient();
    return new WiredPartnerClient(wire, secrets, secretsClient, http,
        new PartnerClient(http, wire.baseUrl(), new ApiKeySource(secretsClient, "key"), new ObjectMapper()));
  }

  @Override
  public void close() throws IOException {
    wire.close();
    secrets.close();
    secretsClient.close();
  }
}
