package com.acme.fulfil.ops;

import com.acme.fulfil.contract.timing.Capacity;
import com.acme.fulfil.contract.oncall.RunbookSections;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataQuery;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataResult;
import software.amazon.awssdk.services.lambda.model.EventSourceMappingConfiguration;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * {@code capacity}: the last hour's arrivals and the function's durations (CloudWatch) against what the
 * deployed mapping books an hour at those durations, at the partner's typical time and at the worst
 * case, and the orders waiting now against the backlog alarm. One sentence; exit 1 when orders arrive
 * faster than they are booked or a backlog waits.
 */
final class CapacityCheck {
  private static final Duration WINDOW = Duration.ofHours(1);
  private static final int PERIOD_SECONDS = 300;

  private final Stack stack;
  private final Clock clock;

  CapacityCheck(Stack stack, Clock clock) {
    this.stack = stack;
    this.clock = clock;
  }

  Report report() {
    int maxConcurrency = stack.localMaxConcurrency().orElseGet(this::mappingConcurrency);
    // Real-world figures: the local stack's budget is time-scaled, the partner's typical time is not.
    Capacity capacity = (stack.local() ? TimingBudget.defaults() : stack.budget()).capacity(maxConcurrency);
    long waiting = Long.parseLong(stack.aws().sqs().getQueueAttributes(r -> r.queueUrl(stack.queueUrl())
        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributes()
        .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
    boolean backlog = waiting > capacity.backlogAlarmThreshold();
    ObjectNode json = new ObjectMapper().createObjectNode()
        .put("max_concurrency", maxConcurrency)
        .put("batch_size", capacity.batchSize())
        .put("capacity_orders_per_hour_typical", capacity.typicalOrdersPerHour())
        .put("capacity_orders_per_hour_worst_case", capacity.worstCaseOrdersPerHour())
        .put("waiting_now", waiting)
        .put("backlog_alarm_threshold", capacity.backlogAlarmThreshold());
    String waitingNow = String.format(Locale.ROOT, "%,d order%s waiting now (the backlog alarm fires above %,d)", waiting,
        waiting == 1 ? "" : "s", capacity.backlogAlarmThreshold());
    if (stack.local()) {
      // The same fields as in AWS, for scripts: null where only CloudWatch could say.
      List.of("arrivals_last_hour", "invocations_last_hour", "mean_duration_seconds", "max_duration_seconds",
          "capacity_orders_per_hour_at_measured_duration", "utilisation", "arrivals_outpace_capacity").forEach(json::putNull);
      json.put("backlog", backlog);
      return new Report(List.of("The local stack has no CloudWatch, so no last hour to measure: at maxConcurrency "
          + maxConcurrency + " it " + capacity.sentence() + "; " + waitingNow + "."), json, backlog ? 1 : 0);
    }
    LastHour hour = lastHour();
    json.put("arrivals_last_hour", hour.arrivals()).put("invocations_last_hour", hour.invocations());
    json.put("mean_duration_seconds", hour.meanDuration().map(d -> d.toMillis() / 1000.0).orElse(null));
    json.put("max_duration_seconds", hour.maxDuration().map(d -> d.toMillis() / 1000.0).orElse(null));
    // An invocation's duration already holds its batch's rounds of lookup and booking.
    Optional<Long> atMeasured = hour.meanDuration()
        .map(d -> (long) (maxConcurrency * (double) capacity.batchSize() * 3600 / (d.toMillis() / 1000.0)));
    json.put("capacity_orders_per_hour_at_measured_duration", atMeasured.orElse(null));
    long bookable = atMeasured.orElse(capacity.typicalOrdersPerHour());
    boolean outpaced = hour.arrivals() > bookable;
    json.put("utilisation", bookable == 0 ? 0 : hour.arrivals() / (double) bookable);
    json.put("arrivals_outpace_capacity", outpaced).put("backlog", backlog);
    String measured = hour.meanDuration()
        .map(d -> String.format(Locale.ROOT, "invocations took %s on average (longest %s), at which %d at once x %d book %,d an hour",
            seconds(d), seconds(hour.maxDuration().orElseThrow()), maxConcurrency, capacity.batchSize(), atMeasured.orElseThrow()))
        .orElse(String.format(Locale.ROOT, "nothing was invoked, and at the partner's typical %s a round (its slowest record) %d at once x %d book %,d an hour",
            seconds(capacity.typicalRound()), maxConcurrency, capacity.batchSize(), capacity.typicalOrdersPerHour()));
    String backlogSection = RunbookSections.see(RunbookSections.BACKLOG);
    String verdict = outpaced ? "orders arrive faster than they are booked: " + backlogSection
        : backlog ? "a backlog waits: " + backlogSection : "no backlog";
    String sentence = String.format(Locale.ROOT, "In the last hour %,d orders arrived (%.0f%% of capacity) and %s;"
            + " at the partner's worst case (%s an order) the stack books %,d an hour; %s: %s.",
        hour.arrivals(), 100.0 * hour.arrivals() / Math.max(1, bookable), measured, seconds(capacity.worstCaseOrder()),
        capacity.worstCaseOrdersPerHour(), waitingNow, verdict);
    return new Report(List.of(sentence), json, outpaced || backlog ? 1 : 0);
  }

  /** The mapping's maximum concurrency as deployed; without one it scales as far as the account lets it. */
  private int mappingConcurrency() {
    List<EventSourceMappingConfiguration> mappings = stack.aws().lambda().orElseThrow()
        .listEventSourceMappings(r -> r.functionName(stack.functionAliasArn().orElseThrow()).eventSourceArn(stack.queueArn()))
        .eventSourceMappings();
    if (mappings.isEmpty()) {
      throw new OpsException("no event source mapping from " + stack.queueUrl() + " to " + stack.functionAliasArn().orElseThrow()
          + ": nothing books orders (./fulfil-ops check)");
    }
    EventSourceMappingConfiguration mapping = mappings.getFirst();
    if (mapping.scalingConfig() == null || mapping.scalingConfig().maximumConcurrency() == null) {
      throw new OpsException("the event source mapping " + mapping.uuid() + " has no maximum concurrency: the partner sees"
          + " as many calls as Lambda's account concurrency allows (./fulfil-ops check; the stack sets one)");
    }
    return mapping.scalingConfig().maximumConcurrency();
  }

  private LastHour lastHour() {
    Instant end = clock.instant();
    String queueName = stack.queueUrl().substring(stack.queueUrl().lastIndexOf('/') + 1);
    List<MetricDataResult> results = stack.aws().cloudWatch().orElseThrow().getMetricData(r -> r
        .startTime(end.minus(WINDOW)).endTime(end)
        .metricDataQueries(
            query("arrivals", "AWS/SQS", "NumberOfMessagesSent", "QueueName", queueName, "Sum"),
            query("invocations", "AWS/Lambda", "Invocations", "FunctionName", stack.functionName(), "Sum"),
            query("duration_sum", "AWS/Lambda", "Duration", "FunctionName", stack.functionName(), "Sum"),
            query("duration_max", "AWS/Lambda", "Duration", "FunctionName", stack.functionName(), "Maximum")))
        .metricDataResults();
    long arrivals = Math.round(sum(results, "arrivals"));
    long invocations = Math.round(sum(results, "invocations"));
    Optional<Duration> mean = invocations == 0 ? Optional.empty()
        : Optional.of(Duration.ofMillis(Math.round(sum(results, "duration_sum") / invocations)));
    Optional<Duration> max = values(results, "duration_max").stream().max(Double::compare).map(ms -> Duration.ofMillis(Math.round(ms)));
    return new LastHour(arrivals, invocations, mean, max.or(() -> mean));
  }

  private static MetricDataQuery query(String id, String namespace, String metric, String dimension, String value, String stat) {
    return MetricDataQuery.builder().id(id).returnData(true).metricStat(s -> s.period(PERIOD_SECONDS).stat(stat)
        .metric(m -> m.namespace(namespace).metricName(metric).dimensions(Dimension.builder().name(dimension).value(value).build())))
        .build();
  }

  private static double sum(List<MetricDataResult> results, String id) {
    return values(results, id).stream().mapToDouble(Double::doubleValue).sum();
  }

  private static List<Double> values(List<MetricDataResult> results, String id) {
    return results.stream().filter(r -> r.id().equals(id)).flatMap(r -> r.values().stream()).toList();
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
  }

  private record LastHour(long arrivals, long invocations, Optional<Duration> meanDuration, Optional<Duration> maxDuration) {}
}
