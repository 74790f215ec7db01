package com.acme.fulfil.ops;

import com.acme.fulfil.contract.AlarmNames;
import com.acme.fulfil.contract.FunctionEnvironment;
import com.acme.fulfil.contract.OnCallSettings;
import com.acme.fulfil.contract.TimingBudget;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.lambda.model.EventSourceMappingConfiguration;
import software.amazon.awssdk.services.lambda.model.EventSourceMappingMetric;
import software.amazon.awssdk.services.lambda.model.FunctionResponseType;
import software.amazon.awssdk.services.lambda.model.TracingMode;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * {@code check}: the deployed queue, DLQ, table, event source mapping, function and alarms against the
 * {@code TimingBudget} they were deployed from, to catch what someone changed by hand in the console.
 * Each finding is one sentence; none means the stack is as deployed.
 */
final class DriftCheck {
  /** Where the settings every deploy reads are committed. */
  private static final String SETTINGS = "infra/cdk.json";
  private static final String TTL_ATTRIBUTE = com.acme.fulfil.contract.OrderRecordLayout.EXPIRY;

  private final Stack stack;
  private final TimingBudget budget;
  private final ObjectMapper json = new ObjectMapper();
  private final List<String> unreported = new ArrayList<>();

  DriftCheck(Stack stack) {
    this.stack = stack;
    this.budget = stack.budget();
  }

  Report check() {
    List<String> findings = new ArrayList<>();
    queues(findings);
    table(findings);
    String checked = "the queue, the DLQ and the table";
    if (!stack.local()) {
      mapping(findings);
      function(findings);
      alarms(findings);
      checked = "the queue, the DLQ, the table, the event source mapping, the function, the alarms and their topic";
    }
    List<String> lines = new ArrayList<>();
    lines.add("checked " + checked + " of " + stack.description() + " against its timing budget"
        + " (function timeout " + budget.functionTimeout().toSeconds() + " s, visibility " + budget.visibilityTimeout().toSeconds()
        + " s, DLQ after " + budget.maxReceiveCount() + " receives)");
    if (stack.local()) {
      lines.add("not checked on the local stack: the mapping, function and alarms (it runs its own mapping and has no alarms)");
    }
    if (!unreported.isEmpty()) {
      lines.add("not reported by this SQS, so not checked: " + String.join(", ", unreported));
    }
    lines.add(findings.isEmpty() ? "no drift found" : findings.size() + " finding(s):");
    findings.forEach(finding -> lines.add("  - " + finding));
    ObjectNode out = json.createObjectNode().put("drift", !findings.isEmpty());
    findings.forEach(out.putArray("findings")::add);
    if (findings.isEmpty()) {
      out.putArray("findings");
    }
    return new Report(lines, out, findings.isEmpty() ? 0 : 1);
  }

  private void queues(List<String> findings) {
    Map<QueueAttributeName, String> source = attributes(stack.queueUrl());
    expectSeconds(findings, "orders-to-fulfil's visibility timeout", source.get(QueueAttributeName.VISIBILITY_TIMEOUT),
        budget.visibilityTimeout(), "a try that outlives it is handed to a second invocation");
    expectSeconds(findings, "orders-to-fulfil's retention", source.get(QueueAttributeName.MESSAGE_RETENTION_PERIOD),
        budget.sourceRetention(), "the idempotency TTL is derived from it");
    String redrive = source.get(QueueAttributeName.REDRIVE_POLICY);
    if (redrive == null || redrive.isBlank()) {
      findings.add("orders-to-fulfil has no redrive policy: poison messages recycle until they expire and nothing reaches"
          + " the DLQ");
    } else {
      JsonNode policy = parse(redrive);
      int maxReceives = policy.path("maxReceiveCount").asInt();
      if (maxReceives != budget.maxReceiveCount()) {
        findings.add("orders-to-fulfil's maxReceiveCount is " + maxReceives + ", the budget says " + budget.maxReceiveCount());
      }
      String target = policy.path("deadLetterTargetArn").asText();
      String dlqArn = stack.dlqArn();
      if (!target.equals(dlqArn)) {
        findings.add("orders-to-fulfil's redrive policy sends to " + target + ", not to the stack's DLQ " + dlqArn);
      }
    }
    expectSeconds(findings, "the DLQ's retention", attributes(stack.dlqUrl()).get(QueueAttributeName.MESSAGE_RETENTION_PERIOD),
        budget.dlqRetention(), "on-call has that long to redrive");
  }

  private void table(List<String> findings) {
    var ttl = stack.aws().dynamoDb().describeTimeToLive(r -> r.tableName(stack.table())).timeToLiveDescription();
    if (ttl.timeToLiveStatus() != TimeToLiveStatus.ENABLED || !TTL_ATTRIBUTE.equals(ttl.attributeName())) {
      findings.add("the table " + stack.table() + " has TTL " + ttl.timeToLiveStatusAsString() + " on "
          + ttl.attributeName() + ", not ENABLED on " + TTL_ATTRIBUTE + ": old records are never deleted");
    }
  }

  private void mapping(List<String> findings) {
    List<EventSourceMappingConfiguration> mappings = stack.aws().lambda().orElseThrow()
        .listEventSourceMappings(r -> r.functionName(stack.functionAliasArn().orElseThrow()).eventSourceArn(stack.queueArn()))
        .eventSourceMappings();
    if (mappings.isEmpty()) {
      findings.add("no event source mapping from orders-to-fulfil to " + stack.functionAliasArn().orElseThrow()
          + ": nothing consumes the orders");
      return;
    }
    boolean committedEnabled = settings().mappingEnabled();
    for (EventSourceMappingConfiguration mapping : mappings) {
      if (!(committedEnabled ? "Enabled" : "Disabled").equals(mapping.state())) {
        findings.add("the event source mapping " + mapping.uuid() + " is " + mapping.state() + ", " + SETTINGS
            + " commits " + OnCallSettings.MAPPING_ENABLED + " " + committedEnabled + ": the next deploy sets it back;"
            + " commit the state on-call chose first (runbook section 7)");
      }
      if (mapping.batchSize() != budget.batchSize()) {
        findings.add("the event source mapping's batch size is " + mapping.batchSize() + ", the budget says " + budget.batchSize());
      }
      int window = Optional.ofNullable(mapping.maximumBatchingWindowInSeconds()).orElse(0);
      if (window != budget.batchingWindow().toSeconds()) {
        findings.add("the event source mapping's batching window is " + window + " s, the budget says "
            + budget.batchingWindow().toSeconds() + " s");
      }
      if (!mapping.functionResponseTypes().contains(FunctionResponseType.REPORT_BATCH_ITEM_FAILURES)) {
        findings.add("the event source mapping does not report batch item failures: one failed order retries its whole batch");
      }
      if (mapping.metricsConfig() == null || !mapping.metricsConfig().metrics().contains(EventSourceMappingMetric.EVENT_COUNT)) {
        findings.add("the event source mapping " + mapping.uuid() + " does not publish its event counts (MetricsConfig"
            + " EventCount is off): runbook section 13's polled and invoked counts are gone");
      }
    }
    mappings.forEach(mapping -> maximumConcurrency(findings, mapping));
    if (mappings.size() > 1) {
      findings.add(mappings.size() + " event source mappings read orders-to-fulfil for the function: one is expected");
    }
  }

  /** The partner's protection: without a cap, standard scaling may reach 1,250 invocations at once. */
  private void maximumConcurrency(List<String> findings, EventSourceMappingConfiguration mapping) {
    int expected = settings().maxConcurrency();
    Integer actual = mapping.scalingConfig() == null ? null : mapping.scalingConfig().maximumConcurrency();
    if (actual == null) {
      findings.add("the event source mapping " + mapping.uuid() + " has no maximum concurrency, " + SETTINGS + " says "
          + expected + ": nothing caps the partner's calls at once (up to 1,250 invocations)");
    } else if (actual != expected) {
      findings.add("the event source mapping's maximum concurrency is " + actual + ", " + SETTINGS + " says " + expected
          + ": it caps the partner's calls at once");
    }
  }

  private void function(List<String> findings) {
    var configuration = stack.aws().lambda().orElseThrow()
        .getFunctionConfiguration(r -> r.functionName(stack.functionAliasArn().orElseThrow()));
    DeployedSettings settings = settings();
    if (configuration.memorySize() == null || configuration.memorySize() != settings.functionMemoryMb()) {
      findings.add("the function's memory is " + configuration.memorySize() + " MB, " + SETTINGS + " says "
          + settings.functionMemoryMb() + " MB");
    }
    TracingMode tracing = configuration.tracingConfig() == null ? TracingMode.PASS_THROUGH : configuration.tracingConfig().mode();
    TracingMode expectedTracing = settings.activeTracing() ? TracingMode.ACTIVE : TracingMode.PASS_THROUGH;
    if (tracing != expectedTracing) {
      findings.add("the function's tracing is " + tracing + ", " + SETTINGS + " says " + expectedTracing);
    }
    if (configuration.timeout() != budget.functionTimeout().toSeconds()) {
      findings.add("the function's timeout is " + configuration.timeout() + " s, the budget says "
          + budget.functionTimeout().toSeconds() + " s");
    }
    Map<String, String> env = configuration.environment() == null ? Map.of() : configuration.environment().variables();
    budget.functionEnvironment().forEach((name, expected) -> {
      if (!expected.equals(env.get(name))) {
        findings.add("the function's " + name + " is " + env.get(name) + ", the budget says " + expected);
      }
    });
    if (!settings.logLevel().equals(env.get(FunctionEnvironment.LOG_LEVEL))) {
      findings.add("the function's " + FunctionEnvironment.LOG_LEVEL + " is " + env.get(FunctionEnvironment.LOG_LEVEL) + ", "
          + SETTINGS + " says " + settings.logLevel() + " (the mapping invokes live's published version, which"
          + " a change to the function does not reach)");
    }
    committed(findings, settings.partnerApiKeySecretArn(), OnCallSettings.PARTNER_API_KEY_SECRET_ARN)
        .filter(arn -> !arn.equals(env.get(FunctionEnvironment.PARTNER_API_KEY_SECRET_ID)))
        .ifPresent(arn -> findings.add("the function reads the partner's key from "
            + env.get(FunctionEnvironment.PARTNER_API_KEY_SECRET_ID) + ", " + SETTINGS + " commits " + arn));
    committed(findings, settings.partnerBaseUrl(), OnCallSettings.PARTNER_BASE_URL)
        .filter(url -> !url.equals(stack.partnerBaseUrl().toString()))
        .ifPresent(url -> findings.add("the stack was deployed with the partner " + stack.partnerBaseUrl() + ", "
            + SETTINGS + " commits " + url));
    String partnerUrl = env.get(FunctionEnvironment.PARTNER_BASE_URL);
    if (!stack.partnerBaseUrl().toString().equals(partnerUrl)) {
      findings.add("the function's " + FunctionEnvironment.PARTNER_BASE_URL + " is " + partnerUrl
          + ", the stack was deployed with " + stack.partnerBaseUrl() + ": the partner's API key goes with every request"
          + " to it; deploy again to put it back");
    }
  }

  private void alarms(List<String> findings) {
    var cloudWatch = stack.aws().cloudWatch().orElseThrow();
    List<MetricAlarm> alarms = cloudWatch.describeAlarms(r -> r.alarmNames(AlarmNames.ALL)).metricAlarms();
    String topic = stack.alarmTopicArn().orElseThrow();
    Map<String, Double> thresholds = settings().alarmThresholds();
    for (String name : AlarmNames.ALL) {
      Optional<MetricAlarm> alarm = alarms.stream().filter(a -> a.alarmName().equals(name)).findFirst();
      if (alarm.isEmpty()) {
        findings.add("the alarm " + name + " is missing");
        continue;
      }
      if (!Boolean.TRUE.equals(alarm.get().actionsEnabled()) || !alarm.get().alarmActions().contains(topic)) {
        findings.add("the alarm " + name + " does not notify " + topic + " (actions disabled or removed)");
      } else if (!alarm.get().okActions().contains(topic)) {
        findings.add("the alarm " + name + " does not notify " + topic + " when it clears (its OK action was removed)");
      }
      double expected = thresholds.get(name);
      if (alarm.get().threshold() == null || alarm.get().threshold() != expected) {
        findings.add(String.format(java.util.Locale.ROOT, "the alarm %s fires above %s, %s says above %s", name,
            number(alarm.get().threshold()), SETTINGS, number(expected)));
      }
    }
    var subscriptions = stack.aws().sns().orElseThrow().listSubscriptionsByTopicPaginator(r -> r.topicArn(topic))
        .subscriptions().stream().toList();
    long confirmed = subscriptions.stream().filter(s -> !"PendingConfirmation".equals(s.subscriptionArn())).count();
    if (confirmed == 0) {
      findings.add("nobody is subscribed to " + topic + " (or the subscription is unconfirmed): alarms reach no one");
    }
    committed(findings, settings().alarmEmail(), OnCallSettings.ALARM_EMAIL)
        .filter(email -> subscriptions.stream().noneMatch(s -> "email".equals(s.protocol()) && email.equals(s.endpoint())))
        .ifPresent(email -> findings.add(email + ", whom " + SETTINGS + " commits, is not subscribed to " + topic));
  }

  /** A setting synth refuses to deploy without: its absence from the committed file is a finding of its own. */
  private static Optional<String> committed(List<String> findings, Optional<String> value, String key) {
    if (value.isEmpty()) {
      findings.add(SETTINGS + " commits no " + key + ": synth refuses to deploy from it until it does");
    }
    return value;
  }

  private DeployedSettings settings() {
    return stack.deployedWith().orElseThrow();
  }

  private static String number(Double value) {
    return value == null ? "nothing" : value == Math.rint(value) ? Long.toString(value.longValue()) : value.toString();
  }

  private Map<QueueAttributeName, String> attributes(String url) {
    return stack.aws().sqs().getQueueAttributes(r -> r.queueUrl(url).attributeNames(QueueAttributeName.ALL)).attributes();
  }

  private void expectSeconds(List<String> findings, String what, String actual, Duration expected, String why) {
    if (actual == null) {
      // AWS always reports it; some emulators (ElasticMQ, for retention) do not.
      unreported.add(what);
      return;
    }
    if (Long.parseLong(actual) != expected.toSeconds()) {
      findings.add(what + " is " + actual + " s, the budget says " + expected.toSeconds() + " s: " + why);
    }
  }

  private JsonNode parse(String text) {
    try {
      return json.readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return json.createObjectNode();
    }
  }
}
