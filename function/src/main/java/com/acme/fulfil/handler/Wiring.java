package com.acme.fulfil.handler;

import com.acme.fulfil.booking.IdempotentBooking;
import com.acme.fulfil.booking.OrderIdempotencyStore;
import com.acme.fulfil.booking.PartnerBooking;
import com.acme.fulfil.config.AwsClients;
import com.acme.fulfil.config.FunctionConfig;
import com.acme.fulfil.fulfilment.OrderFulfilment;
import com.acme.fulfil.observability.FulfilmentMetrics;
import com.acme.fulfil.order.OrderParser;
import com.acme.fulfil.partner.PartnerClient;
import com.acme.fulfil.queue.VisibilityResets;
import com.acme.fulfil.secrets.ApiKeySource;
import com.fasterxml.jackson.databind.ObjectMapper;
import software.amazon.cloudwatchlogs.emf.config.Configuration;
import software.amazon.cloudwatchlogs.emf.config.EnvironmentConfigurationProvider;
import software.amazon.cloudwatchlogs.emf.environment.Environments;
import software.amazon.lambda.powertools.idempotency.Idempotency;
import software.amazon.lambda.powertools.idempotency.IdempotencyConfig;
import software.amazon.lambda.powertools.metrics.MetricsBuilder;

/** The object graph of one container, from its configuration. */
record Wiring(FunctionConfig config, OrderFulfilment fulfilment, VisibilityResets visibilityResets, FulfilmentMetrics metrics) {
  static final String SERVICE = "fulfil-order";

  Wiring(FunctionConfig config) {
    this(config, AwsClients.create(config.endpoints()), new ObjectMapper(), metricsFor(config));
  }

  private Wiring(FunctionConfig config, AwsClients aws, ObjectMapper json, FulfilmentMetrics metrics) {
    this(config, fulfilment(config, aws, json, metrics), new VisibilityResets(aws.sqs()), metrics);
  }

  private static OrderFulfilment fulfilment(FunctionConfig config, AwsClients aws, ObjectMapper json, FulfilmentMetrics metrics) {
    OrderIdempotencyStore store = new OrderIdempotencyStore(aws.dynamoDb(), config.idempotencyTable());
    // Powertools keeps its configuration in a static: one store per JVM, as Lambda runs one container per JVM.
    Idempotency.config()
        .withPersistenceStore(store)
        .withConfig(IdempotencyConfig.builder()
            .withExpiration(config.idempotencyTtl())
            .withThrowOnNoIdempotencyKey(true)
            .build())
        .configure();
    PartnerClient partner = new PartnerClient(PartnerClient.httpClient(), config.partnerBaseUrl(),
        new ApiKeySource(aws.secretsManager(), config.apiKeySecretId()), json);
    IdempotentBooking booking = new IdempotentBooking(new PartnerBooking(partner, metrics), store);
    return new OrderFulfilment(new OrderParser(json), booking, metrics, config.maxReceiveCount());
  }

  private static FulfilmentMetrics metricsFor(FunctionConfig config) {
    // This code only runs in Lambda or an emulation of it: EMF goes to stdout. Left to detect its
    // environment, the EMF library probes EC2/ECS metadata and an agent socket wherever Lambda's own
    // variables are missing (in the local run and the tests).
    Configuration emf = EnvironmentConfigurationProvider.getConfig();
    emf.setEnvironmentOverride(Environments.Lambda);
    emf.setServiceName(SERVICE);
    return new FulfilmentMetrics(MetricsBuilder.builder()
        .withNamespace(config.metricsNamespace())
        .withService(SERVICE)
        .build());
  }
}
