package com.acme.fulfil.infra;

import com.acme.fulfil.timing.AlarmNames;
import com.acme.fulfil.timing.Capacity;
import com.acme.fulfil.timing.TimingBudget;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricProps;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.Stats;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sns.subscriptions.EmailSubscription;
import software.constructs.Construct;

/**
 * The alarms on-call acts on, each named for what it means and each notifying one SNS topic: a
 * message reached the DLQ, messages are sitting in the source queue, the in-flight cap is near, the
 * function fails or is throttled, the event source mapping drops messages.
 */
public final class FulfilOrderAlarms extends Construct {
  private static final String TOPIC_NAME = "fulfil-order-alarms";
  /** A standard queue refuses receives at about 120,000 messages in flight; this leaves room to act. */
  private static final int IN_FLIGHT_WARNING = 100_000;

  /** The period the timing rules assume (the messages-sitting alarm's lead after the retry horizon). */
  private static final Duration PERIOD = Duration.seconds(TimingBudget.ALARM_PERIOD.toSeconds());

  private final Topic topic;
  private final SnsAction toOnCall;

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

    raise(AlarmNames.DLQ_NOT_EMPTY,
        queues.deadLetters().metricApproximateNumberOfMessagesVisible(maximum()), 0,
        "An order failed " + budget.maxReceiveCount() + " times and is now in " + OrderQueues.DLQ_NAME
            + ". Read it, fix the cause, then move it back with StartMessageMoveTask (see the runbook).");
    // Within retryHorizon (visibility x maxReceiveCount) every message is either booked or moved to
    // the DLQ, so one still waiting in the source queue after that means consumption has stalled:
    // the seeds' "messages sitting for days", caught in hours.
    raise(AlarmNames.OLDEST_MESSAGE_TOO_OLD,
        queues.source().metricApproximateAgeOfOldestMessage(maximum()), budget.retryHorizon().toSeconds(),
        "A message has waited in " + OrderQueues.SOURCE_QUEUE_NAME + " longer than its whole retry horizon ("
            + budget.retryHorizon().toMinutes() + " minutes): fulfil-order is not consuming. Check the event"
            + " source mapping is enabled and the function's errors and throttles.");
    raise(AlarmNames.IN_FLIGHT_NEAR_CAP,
        queues.source().metricApproximateNumberOfMessagesNotVisible(maximum()), IN_FLIGHT_WARNING,
        String.format(Locale.ROOT, "More than %,d messages of ", IN_FLIGHT_WARNING) + OrderQueues.SOURCE_QUEUE_NAME + " are in flight;"
            + " at about 120,000 SQS stops handing out messages. Look for a consumer that receives without deleting.");
    // Visible messages are the ones no invocation has taken yet; the minimum over the period ignores a
    // burst the stack clears within it. An outage keeps them low (each failed try hides its message for
    // the visibility timeout), so this alarm means "too slow", not "failing" (runbook section 16).
    long backlog = capacity.backlogAlarmThreshold();
    raise(AlarmNames.BACKLOG,
        queues.source().metricApproximateNumberOfMessagesVisible(minimum()), backlog,
        String.format(Locale.ROOT, "More than %,d orders have waited in %s for five minutes: more than the stack books in"
            + " %d minutes on a normal partner day (it %s). Orders arrive faster than they are booked;"
            + " see the runbook's backlog section.", backlog, OrderQueues.SOURCE_QUEUE_NAME, Capacity.BACKLOG_WINDOW.toMinutes(),
            capacity.sentence()));
    raise(AlarmNames.FUNCTION_ERRORS, function.metricErrors(sum()), 0,
        "fulfil-order invocations failed as a whole (a crash or a timeout), not just single orders."
            + " Every record of those batches will be retried.");
    raise(AlarmNames.FUNCTION_THROTTLES, function.metricThrottles(sum()), 0,
        "Lambda throttled fulfil-order: the account's concurrency is exhausted and orders wait.");
    // A message the mapping received and gave up on without the function deciding about it (for SQS:
    // invokes throttled until the message's visibility ran out): it burned a receive with no try of ours
    // and no log line. Failed invokes are not alarmed: with partial batch responses every transient
    // failure of an order counts there, which TransientFailure and the DLQ alarm already cover.
    raise(AlarmNames.MAPPING_DROPPED_EVENTS, new Metric(MetricProps.builder()
            .namespace("AWS/Lambda")
            .metricName("DroppedEventCount")
            .dimensionsMap(Map.of("EventSourceMappingUUID", mappingId))
            .statistic(Stats.SUM)
            .period(PERIOD)
            .build()), 0,
        "The event source mapping from " + OrderQueues.SOURCE_QUEUE_NAME + " dropped messages without the function"
            + " processing them (throttled invokes, or none possible): each lost a receive and returns after the"
            + " visibility timeout. See the runbook.");
  }

  public Topic topic() {
    return topic;
  }

  private void raise(String name, IMetric metric, double threshold, String description) {
    Alarm alarm = Alarm.Builder.create(this, name)
        .alarmName(name)
        .alarmDescription(description)
        .metric(metric)
        .threshold(threshold)
        .comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD)
        .evaluationPeriods(1)
        .treatMissingData(TreatMissingData.NOT_BREACHING)
        .build();
    alarm.addAlarmAction(toOnCall);
  }

  private static MetricOptions maximum() {
    return MetricOptions.builder().statistic(Stats.MAXIMUM).period(PERIOD).build();
  }

  private static MetricOptions minimum() {
    return MetricOptions.builder().statistic(Stats.MINIMUM).period(PERIOD).build();
  }

  private static MetricOptions sum() {
    return MetricOptions.builder().statistic(Stats.SUM).period(PERIOD).build();
  }
}
