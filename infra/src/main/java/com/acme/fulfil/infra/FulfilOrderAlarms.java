package com.acme.fulfil.infra;

import com.acme.fulfil.timing.AlarmNames;
import com.acme.fulfil.timing.AlarmSignal;
import com.acme.fulfil.timing.AlarmRule;
import com.acme.fulfil.timing.AlarmRules;
import com.acme.fulfil.timing.AlarmThresholds;
import com.acme.fulfil.timing.Capacity;
import com.acme.fulfil.timing.TimingBudget;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricProps;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.Stats;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sns.subscriptions.EmailSubscription;
import software.constructs.Construct;

/**
 * The alarms on-call acts on, each named for what it means and each notifying one SNS topic when it
 * fires and when it clears: new messages reached the DLQ, messages are sitting in the source queue, the
 * in-flight cap is near, orders wait longer than the stack books them, the function fails or is
 * throttled, the event source mapping drops messages, tries fail while none books.
 */
public final class FulfilOrderAlarms extends Construct {
  private static final String TOPIC_NAME = "fulfil-order-alarms";

  private final Topic topic;
  private final SnsAction toOnCall;
  /** What each alarm watches and when it fires, by name: timing's, which the local run plays too. */
  private final Map<String, AlarmRule> rules;

  public FulfilOrderAlarms(Construct scope, String id, TimingBudget budget, Capacity capacity, OrderQueues queues,
      IFunction function, String mappingId, Optional<String> alarmEmail) {
    super(scope, id);
    topic = Topic.Builder.create(this, "Topic")
        .topicName(TOPIC_NAME)
        .enforceSsl(true)
        .build();
    NagSuppressions.addResourceSuppressions(topic, List.of(NagPackSuppression.builder()
        .id("AwsSolutions-SNS2")
        .reason("The topic carries alarm names and metric values, never order data. CloudWatch cannot"
            + " publish to a topic encrypted with the AWS-managed aws/sns key, and a customer-managed key"
            + " would add a key policy and a monthly charge to protect nothing confidential.")
        .build()));
    alarmEmail.ifPresentOrElse(
        email -> topic.addSubscription(new EmailSubscription(email)),
        () -> Annotations.of(topic).addWarningV2("fulfil-order:no-alarm-email",
            "No alarmEmail in context: the alarms notify " + TOPIC_NAME + " and nobody is subscribed to it."
                + " Deploy with -c alarmEmail=<on-call address> or subscribe to the topic yourself."));
    toOnCall = new SnsAction(topic);
    rules = AlarmRules.of(budget, capacity).stream().collect(Collectors.toMap(AlarmRule::name, Function.identity()));

    // Arrivals in each period, not the DLQ's depth: a depth alarm stays in ALARM while one message waits,
    // and later ones page no one. NumberOfMessagesSent counts only messages sent to the DLQ directly (the
    // function's poison, on its first receive); SQS does not count those its redrive policy moves there,
    // so the visible count's rise stands for them.
    Queue dlq = queues.deadLetters();
    raise(AlarmNames.DLQ_NEW_MESSAGES, MathExpression.Builder.create()
            .expression("FILL(sent, 0) + IF(DIFF(FILL(visible, 0)) > 0, DIFF(FILL(visible, 0)), 0)")
            .usingMetrics(Map.of("sent", dlq.metricNumberOfMessagesSent(options(AlarmNames.DLQ_NEW_MESSAGES, Stats.SUM)),
                "visible", dlq.metricApproximateNumberOfMessagesVisible(options(AlarmNames.DLQ_NEW_MESSAGES, Stats.MAXIMUM))))
            .label("messages new in " + OrderQueues.DLQ_NAME)
            .period(period(AlarmNames.DLQ_NEW_MESSAGES))
            .build(),
        "New messages arrived in " + OrderQueues.DLQ_NAME + " in the last five minutes: orders that can never succeed"
            + " (sent by the function on their first receive) or whose receives ran out. Each arrival pages again;"
            + " OK means none arrived since, not that the DLQ is empty. Run ./fulfil-ops dlq: runbook section 2.");
    // Within the longest retry life (visibility x maxReceiveCount: every try killed, or needing a person)
    // every message is either booked or moved to the DLQ, so one still waiting in the source queue after
    // that means consumption has stalled.
    raise(AlarmNames.OLDEST_MESSAGE_TOO_OLD,
        queues.source().metricApproximateAgeOfOldestMessage(options(AlarmNames.OLDEST_MESSAGE_TOO_OLD)),
        "A message has waited in " + OrderQueues.SOURCE_QUEUE_NAME + " longer than its longest retry life ("
            + budget.longestRetryLife().toMinutes() + " minutes): fulfil-order is not consuming. Check the event"
            + " source mapping is enabled and the function's errors and throttles: runbook section 3.");
    raise(AlarmNames.IN_FLIGHT_NEAR_CAP,
        queues.source().metricApproximateNumberOfMessagesNotVisible(options(AlarmNames.IN_FLIGHT_NEAR_CAP)),
        String.format(Locale.ROOT, "More than %,d messages of ", AlarmThresholds.IN_FLIGHT_WARNING) + OrderQueues.SOURCE_QUEUE_NAME
            + " are in flight; at about 120,000 SQS stops handing out messages. Look for a consumer that receives"
            + " without deleting: runbook section 4.");
    // Visible messages are the ones no invocation has taken yet; the minimum over the period ignores a
    // burst the stack clears within it. An outage keeps them low (each failed try hides its message for
    // the visibility timeout), so this alarm means "too slow"; the partner-failing alarm means "failing".
    long backlog = capacity.backlogAlarmThreshold();
    raise(AlarmNames.BACKLOG,
        queues.source().metricApproximateNumberOfMessagesVisible(options(AlarmNames.BACKLOG)),
        String.format(Locale.ROOT, "More than %,d orders have waited in %s for five minutes: more than the stack books in"
            + " %d minutes on a normal partner day (it %s). Orders arrive faster than they are booked:"
            + " runbook section 16.", backlog, OrderQueues.SOURCE_QUEUE_NAME, Capacity.BACKLOG_WINDOW.toMinutes(),
            capacity.sentence()));
    raise(AlarmNames.FUNCTION_ERRORS, function.metricErrors(options(AlarmNames.FUNCTION_ERRORS)),
        "fulfil-order invocations failed as a whole (a crash or a timeout), not just single orders."
            + " Every record of those batches will be retried: runbook section 5.");
    raise(AlarmNames.FUNCTION_THROTTLES, function.metricThrottles(options(AlarmNames.FUNCTION_THROTTLES)),
        "Lambda throttled fulfil-order: the account's concurrency is exhausted and orders wait: runbook section 6.");
    // A message the mapping received and gave up on without the function deciding about it (for SQS:
    // invokes throttled until the message's visibility ran out): it burned a receive with no try of ours
    // and no log line. Failed invokes are not alarmed: with partial batch responses every transient
    // failure of an order counts there, which the partner-failing and DLQ alarms already cover.
    raise(AlarmNames.MAPPING_DROPPED_EVENTS, new Metric(MetricProps.builder()
            .namespace("AWS/Lambda")
            .metricName("DroppedEventCount")
            .dimensionsMap(Map.of("EventSourceMappingUUID", mappingId))
            .statistic(statistic(AlarmNames.MAPPING_DROPPED_EVENTS))
            .period(period(AlarmNames.MAPPING_DROPPED_EVENTS))
            .build()),
        "The event source mapping from " + OrderQueues.SOURCE_QUEUE_NAME + " dropped messages without the function"
            + " processing them (throttled invokes, or none possible): each lost a receive and returns after the"
            + " visibility timeout: runbook section 15.");
    // Failed tries with no booking at all, minute after minute: the partner (or DynamoDB) is failing.
    // The backlog alarm stays quiet in an outage and the DLQ only hears of it after the retry horizon;
    // a minute or two of failures that the retries absorb does not page.
    raise(AlarmNames.PARTNER_FAILING, MathExpression.Builder.create()
            .expression("IF(FILL(failed, 0) > 0 AND FILL(booked, 0) + FILL(adopted, 0) == 0, 1, 0)")
            .usingMetrics(Map.of("failed", functionMetric(AlarmSignal.TRANSIENT_FAILURE),
                "booked", functionMetric(AlarmSignal.ORDER_BOOKED),
                "adopted", functionMetric(AlarmSignal.BOOKING_ADOPTED)))
            .label("minutes with failed tries and no booking")
            .period(period(AlarmNames.PARTNER_FAILING))
            .build(),
        "fulfil-order's tries failed and none booked in 3 of the last 5 minutes: the partner (or DynamoDB) is"
            + " failing and every order waits for its retries: runbook section 7.");
  }

  public Topic topic() {
    return topic;
  }

  /** Pages on-call when it fires, and again when it clears, so a page is never left standing unexplained. */
  private void raise(String name, IMetric metric, String description) {
    AlarmRule rule = rules.get(name);
    Alarm alarm = Alarm.Builder.create(this, name)
        .alarmName(name)
        .alarmDescription(description)
        .metric(metric)
        .threshold(rule.threshold())
        .comparisonOperator(switch (rule.comparison()) {
          case GREATER_THAN_THRESHOLD -> ComparisonOperator.GREATER_THAN_THRESHOLD;
        })
        .evaluationPeriods(rule.evaluationPeriods())
        .datapointsToAlarm(rule.datapointsToAlarm())
        .treatMissingData(switch (rule.missingData()) {
          case NOT_BREACHING -> TreatMissingData.NOT_BREACHING;
          case BREACHING -> TreatMissingData.BREACHING;
          case IGNORE -> TreatMissingData.IGNORE;
          case MISSING -> TreatMissingData.MISSING;
        })
        .build();
    alarm.addAlarmAction(toOnCall);
    alarm.addOkAction(toOnCall);
  }

  /**
   * One of the counts the function emits (its FulfilmentMetrics, by name; Powertools' EMF gives them the
   * namespace and the Service dimension), a minute at a time.
   */
  private Metric functionMetric(String name) {
    return new Metric(MetricProps.builder()
        .namespace(FulfilOrderFunction.METRICS_NAMESPACE)
        .metricName(name)
        .dimensionsMap(Map.of("Service", FulfilOrderFunction.FUNCTION_NAME))
        .statistic(statistic(AlarmNames.PARTNER_FAILING))
        .period(period(AlarmNames.PARTNER_FAILING))
        .build());
  }

  /** The alarm's metric as its rule reads it: its statistic over its period. */
  private MetricOptions options(String alarm) {
    return options(alarm, statistic(alarm));
  }

  /** One of an expression's metrics over the alarm's period: the expression says which statistic. */
  private MetricOptions options(String alarm, String statistic) {
    return MetricOptions.builder().statistic(statistic).period(period(alarm)).build();
  }

  private String statistic(String alarm) {
    return switch (rules.get(alarm).signal().statistic()) {
      case SUM -> Stats.SUM;
      case MAXIMUM -> Stats.MAXIMUM;
      case MINIMUM -> Stats.MINIMUM;
    };
  }

  private Duration period(String alarm) {
    return Duration.seconds(rules.get(alarm).period().toSeconds());
  }
}
