package com.acme.fulfil.handler;

import com.acme.fulfil.booking.OnceOnlyBooking;
import com.acme.fulfil.booking.OrderRecords;
import com.acme.fulfil.config.AwsClients;
import com.acme.fulfil.config.FunctionConfig;
import com.acme.fulfil.config.IdempotencyTable;
import com.acme.fulfil.config.QueueHandling;
import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.fulfilment.OrderFulfilment;
import com.acme.fulfil.observability.FulfilmentMetrics;
import com.acme.fulfil.order.OrderParser;
import com.acme.fulfil.partner.PartnerClient;
import com.acme.fulfil.queue.AcknowledgementPolicy;
import com.acme.fulfil.queue.DeadLetters;
import com.acme.fulfil.queue.MessageReturns;
import com.acme.fulfil.queue.RetryWaits;
import com.acme.fulfil.secrets.ApiKeySource;
import com.acme.fulfil.snapstart.SnapStartPriming;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.SecureRandom;
import java.time.Clock;
import org.crac.Core;
import software.amazon.cloudwatchlogs.emf.config.Configuration;
import software.amazon.cloudwatchlogs.emf.config.EnvironmentConfigurationProvider;
import software.amazon.cloudwatchlogs.emf.environment.Environments;
import software.amazon.lambda.powertools.metrics.MetricsBuilder;

/**
 * The object graph of one container, from its configuration, and the SnapStart priming that walks it before the
 * snapshot, registered with the CRaC global context as Lambda's runtime expects.
 */
record Wiring(FunctionConfig config, BatchProcessor batch, FulfilmentMetrics metrics, SnapStartPriming priming) {

  static Wiring of(FunctionConfig config) {
    AwsClients aws = AwsClients.create(config.endpoints());
    ObjectMapper json = new ObjectMapper();
    FulfilmentMetrics metrics = metricsFor(config);
    IdempotencyTable table = config.table();
    QueueHandling queue = config.queue();
    OrderRecords records = new OrderRecords(aws.dynamoDb(), table.name(), table.functionName(),
        config.partner().lateBookingHold(), table.ttl(), json, Clock.systemUTC());
    PartnerClient partner = new PartnerClient(PartnerClient.httpClient(), config.partner().baseUrl(),
        new ApiKeySource(aws.secretsManager(), config.partner().apiKeySecretId()), json);
    OnceOnlyBooking booking = new OnceOnlyBooking(records, partner, metrics);
    OrderParser parser = new OrderParser(json);
    MessageReturns returns = new MessageReturns(aws.sqs()::getValue, Clock.systemUTC());
    SnapStartPriming priming = new SnapStartPriming(parser, json, aws.dynamoDb(), table.name(), table.functionName(),
        config.partner().baseUrl());
    // A no-op where the JVM has no CRaC (local runs, tests); in Lambda, SnapStart calls it before the snapshot.
    Core.getGlobalContext().register(priming);
    // SecureRandom: a SnapStart restore does not replay its sequence, so restored environments jitter apart.
    RetryWaits waits = new RetryWaits(queue.retrySchedule(), Clock.systemUTC(), new SecureRandom());
    BatchProcessor batch = new BatchProcessor(new OrderFulfilment(parser, booking, metrics, queue.maxReceiveCount()),
        new AcknowledgementPolicy(waits, metrics, queue.maxReceiveCount(), Clock.systemUTC()),
        new DeadLetters(aws.sqs()::getValue, queue.deadLetterQueueUrl(), records, Clock.systemUTC()), returns,
        queue.recordConcurrency());
    return new Wiring(config, batch, metrics, priming);
  }

  private static FulfilmentMetrics metricsFor(FunctionConfig config) {
    // EMF goes to stdout: this code only runs in Lambda or an emulation of it. Left to detect its environment, the
    // EMF library probes EC2/ECS metadata and an agent socket wherever Lambda's own variables are missing.
    Configuration emf = EnvironmentConfigurationProvider.getConfig();
    emf.setEnvironmentOverride(Environments.Lambda);
    emf.setServiceName(MetricNames.SERVICE);
    return new FulfilmentMetrics(
        MetricsBuilder.builder().withNamespace(config.metricsNamespace()).withService(MetricNames.SERVICE).build());
  }
}
