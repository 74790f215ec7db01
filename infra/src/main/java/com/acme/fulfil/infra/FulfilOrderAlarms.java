package com.acme.fulfil.infra;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.acme.fulfil.contract.alarms.AlarmRule;
import com.acme.fulfil.contract.alarms.AlarmRules;
import com.acme.fulfil.contract.timing.Capacity;
import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.contract.oncall.OnCallPhrases;
import com.acme.fulfil.contract.oncall.RunbookSections;
import com.acme.fulfil.contract.timing.TimingBudget;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
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
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sns.subscriptions.EmailSubscription;
import software.constructs.Construct;

/**
 * The alarms on-call acts on, each named for what it means and each notifying one SNS topic when it
 * fires and when it clears: orders reached the DLQ, the DLQ holds messages, orders are not being
 * received, or nothing takes or finishes them, the in-flight cap is near, orders wait longer than the stack
 * books them, the function fails or is throttled, tries fail while none books, the partner booked after an
 * order's hold. CloudWatch notifies on a change of state only: every alarm's text says what its one page,
 * and its OK, stand for.
 */
public final class FulfilOrderAlarms extends Construct {
  private static final String TOPIC_NAME = "fulfil-order-alarms";

  private final Topic topic;
  private final SnsAction toOnCall;
  /** What each alarm watches and when it fires, by name: the contract's, which the local run plays too. */
  private final Map<String, AlarmRule> rules;

  public FulfilOrderAlarms(Construct scope, String id, TimingBudget budget, Capacity capacity, OrderQueues queues,
      IFunction function, String alarmEmail) {
    super(scope, id);
    topic = Topic.Builder.create(this, "Topic")
        .topicName(TOPIC_NAME)
        .enforceSsl(true)
        .build();
    rules = AlarmRules.of(budget, capacity).stream().collect(Collectors.toMap(AlarmRule::name, Function.identity()));
    // A topic policy replaces SNS's default one, so beside the TLS Deny it must allow CloudWatch to publish, or
    // every alarm's action fails ("is not authorized to perform: SNS:Publish") and nobody is paged. Scoped to
    // this account's alarms of this stack, by name, so that no other account's or alarm's CloudWatch can use it.
    Stack stack = Stack.of(this);
    topic.addToResourcePolicy(PolicyStatement.Builder.create()
        .sid("CloudWatchAlarmsOfThisStackPublish")
        .effect(Effect.ALLOW)
        .principals(List.of(new ServicePrincipal(AlarmTopicsAcceptCloudWatch.CLOUDWATCH)))
        .actions(List.of("sns:Publish"))
        .resources(List.of(topic.getTopicArn()))
        .conditions(Map.of(
            "StringEquals", Map.of("aws:SourceAccount", stack.getAccount()),
            "ArnLike", Map.of("aws:SourceArn", rules.keySet().stream().sorted().map(name -> stack.formatArn(ArnComponents.builder()
                .service("cloudwatch").resource("alarm").resourceName(name).arnFormat(ArnFormat.COLON_RESOURCE_NAME).build()))
                .toList())))
        .build());
    // From infra/cdk.json on every deploy: synth refuses a context without it, so no deploy removes it.
    topic.addSubscription(new EmailSubscription(alarmEmail));
    toOnCall = new SnsAction(topic);

    // Whatever moved a message there: the function's own count (it sent the message, or its last receive
    // failed), what anything sent (SQS's NumberOfMessagesSent, which leaves out what a redrive policy moves),
    // and the rise of the DLQ's messages since the minute before (what the redrive policy moved, however that
    // last receive ended: throttled, killed, out of memory, or by another consumer). An empty DLQ that nothing
    // touches is not reported: before its first datapoint it held nothing, after one its last depth stands.
    long receives = budget.maxReceiveCount();
    Queue dlq = queues.deadLetters();
    int window = rules.get(AlarmNames.DLQ_NEW_MESSAGES).evaluationPeriods();
    raise(AlarmNames.DLQ_NEW_MESSAGES, MathExpression.Builder.create()
            .expression("MAX([FILL(counted, 0), FILL(sent, 0),"
                + " DIFF(FILL(FILL(visible, REPEAT), 0) + FILL(inflight, 0))])")
            .usingMetrics(Map.of(
                "counted", functionMetric(MetricNames.DEAD_LETTERED, AlarmNames.DLQ_NEW_MESSAGES, Stats.SUM),
                "sent", dlq.metricNumberOfMessagesSent(options(AlarmNames.DLQ_NEW_MESSAGES, Stats.SUM)),
                "visible", dlq.metricApproximateNumberOfMessagesVisible(options(AlarmNames.DLQ_NEW_MESSAGES, Stats.MAXIMUM)),
                "inflight", dlq.metricApproximateNumberOfMessagesNotVisible(options(AlarmNames.DLQ_NEW_MESSAGES, Stats.MAXIMUM))))
            .label("messages reaching the DLQ in a minute")
            .period(period(AlarmNames.DLQ_NEW_MESSAGES))
            .build(),
        "Orders are reaching " + OrderQueues.DLQ_NAME + ", whatever the DLQ already held: the function sent them"
            + " there (they can never succeed), or their last of " + receives + " receives failed (the function's"
            + " count, or the DLQ's depth rising when the redrive policy moved one whose last try Lambda killed,"
            + " throttled or never ran). The alarm stays in ALARM, without paging again, while any of the last "
            + window + " minutes had an arrival; OK means " + window + " minutes in which the function counted none,"
            + " nothing was sent to the DLQ and its depth did not rise: the next arrival after that pages again."
            + " ./fulfil-ops dlq lists them all: " + RunbookSections.see(RunbookSections.DLQ_ALARMS) + ".");
    raise(AlarmNames.DLQ_NOT_EMPTY, MathExpression.Builder.create()
            .expression("visible + FILL(inflight, 0)")
            .usingMetrics(Map.of(
                "visible", dlq.metricApproximateNumberOfMessagesVisible(options(AlarmNames.DLQ_NOT_EMPTY)),
                "inflight", dlq.metricApproximateNumberOfMessagesNotVisible(options(AlarmNames.DLQ_NOT_EMPTY))))
            .label("messages in the DLQ, visible or being read")
            .period(period(AlarmNames.DLQ_NOT_EMPTY))
            .build(),
        OrderQueues.DLQ_NAME + " holds messages; each is kept " + budget.dlqRetention().toDays()
            + " days from when it was first sent. This alarm pages once, when SQS first reports messages in it, and"
            + " stays in ALARM, without paging again, while it reports any: its OK means SQS reported the DLQ empty,"
            + " nothing visible and nothing being read. When SQS stops reporting (an empty DLQ nothing touches, after"
            + " six hours) it has insufficient data, which pages no one and means neither. Arrivals while it is in"
            + " ALARM are " + AlarmNames.DLQ_NEW_MESSAGES + "'s. Run ./fulfil-ops dlq: "
            + RunbookSections.see(RunbookSections.DLQ_ALARMS) + ".");
    // SQS ages a message over its first two receives only, so this cannot see retrying orders (the
    // partner-failing and DLQ alarms do): it sees orders that are not being received.
    raise(AlarmNames.OLDEST_MESSAGE_TOO_OLD,
        queues.source().metricApproximateAgeOfOldestMessage(options(AlarmNames.OLDEST_MESSAGE_TOO_OLD)),
        "An order has waited in " + OrderQueues.SOURCE_QUEUE_NAME + " more than "
            + AlarmRules.oldestMessageAge(budget).toMinutes() + " minutes without its third receive: longer than two"
            + " tries and their waits take while the function consumes, plus " + Capacity.BACKLOG_WINDOW.toMinutes()
            + " minutes behind a backlog."
            + " SQS ages only messages received fewer than three times, so this alarm sees orders nobody receives (the"
            + " mapping paused or broken, or a backlog that old), not orders that are retrying. Check the event source"
            + " mapping is enabled and the function's errors and throttles: "
            + RunbookSections.see(RunbookSections.MESSAGES_SITTING) + ".");
    raise(AlarmNames.IN_FLIGHT_NEAR_CAP,
        queues.source().metricApproximateNumberOfMessagesNotVisible(options(AlarmNames.IN_FLIGHT_NEAR_CAP)),
        String.format(Locale.ROOT, "More than %,d messages of ", AlarmRules.IN_FLIGHT_WARNING) + OrderQueues.SOURCE_QUEUE_NAME
            + " are in flight; at about 120,000 SQS stops handing out messages. Look for a consumer that receives"
            + " without deleting: " + RunbookSections.see(RunbookSections.IN_FLIGHT) + ".");
    // Visible messages are the ones no invocation has taken yet; the minimum over the period ignores a
    // burst the stack clears within it. An outage keeps them low (each failed try hides its message for
    // its wait), so this alarm means "too slow"; the partner-failing alarm means "failing".
    long backlog = capacity.backlogAlarmThreshold();
    raise(AlarmNames.BACKLOG,
        queues.source().metricApproximateNumberOfMessagesVisible(options(AlarmNames.BACKLOG)),
        String.format(Locale.ROOT, "More than %,d orders have waited in %s for five minutes: more than the stack books in"
            + " %d minutes on a normal partner day (it %s). Orders arrive faster than they are booked:"
            + " "
            + RunbookSections.see(RunbookSections.BACKLOG) + ".", backlog, OrderQueues.SOURCE_QUEUE_NAME, Capacity.BACKLOG_WINDOW.toMinutes(),
            capacity.sentence()));
    raise(AlarmNames.FUNCTION_ERRORS, function.metricErrors(options(AlarmNames.FUNCTION_ERRORS)),
        "fulfil-order invocations failed as a whole (a crash or a timeout), not just single orders."
            + " Every record of those batches will be retried: "
            + RunbookSections.see(RunbookSections.FUNCTION_ERRORS) + ".");
    raise(AlarmNames.FUNCTION_THROTTLES, function.metricThrottles(options(AlarmNames.FUNCTION_THROTTLES)),
        "Lambda throttled fulfil-order: it ran more invocations than its reserved concurrency, so something besides"
            + " the mapping invoked it, or its reservation was changed. A throttled invocation costs its messages a"
            + " receive: " + RunbookSections.see(RunbookSections.THROTTLES) + ".");
    // Failed tries with no booking at all, minute after minute: the partner (or DynamoDB) is failing.
    // The backlog alarm stays quiet in an outage and the DLQ only hears of it after the retry horizon;
    // a minute or two of failures that the retries absorb does not page.
    raise(AlarmNames.PARTNER_FAILING, MathExpression.Builder.create()
            .expression("IF(FILL(failed, 0) > 0 AND FILL(booked, 0) + FILL(adopted, 0) == 0, 1, 0)")
            .usingMetrics(Map.of("failed", functionMetric(MetricNames.TRANSIENT_FAILURE, AlarmNames.PARTNER_FAILING),
                "booked", functionMetric(MetricNames.ORDER_BOOKED, AlarmNames.PARTNER_FAILING),
                "adopted", functionMetric(MetricNames.BOOKING_ADOPTED, AlarmNames.PARTNER_FAILING)))
            .label("minutes with failed tries and no booking")
            .period(period(AlarmNames.PARTNER_FAILING))
            .build(),
        "fulfil-order's tries failed and none booked in 3 of the last 5 minutes: the partner (or DynamoDB) is"
            + " failing and every order waits for its retries: " + RunbookSections.see(RunbookSections.PARTNER_OUTAGE)
            + ". Or the partner refuses the API key the secret holds: the function's lines then end \""
            + OnCallPhrases.ROTATE_THE_SECRET + "\": " + RunbookSections.see(RunbookSections.KEY_ROTATION) + ".");
    // Messages visible all period, and none received or deleted: the mapping is disabled, deleted, broken or
    // starved, whatever the messages' ages (the oldest-message alarm waits for two tries' worth). A working
    // mapping at its concurrency still ends an invocation, deleting or receiving, within the function's timeout.
    long stalled = AlarmRules.stallPeriods(budget) * TimingBudget.ALARM_PERIOD.toMinutes();
    raise(AlarmNames.STALLED, MathExpression.Builder.create()
            .expression("IF(waiting > 0 AND FILL(received, 0) + FILL(deleted, 0) == 0, 1, 0)")
            .usingMetrics(Map.of(
                "waiting", queues.source().metricApproximateNumberOfMessagesVisible(options(AlarmNames.STALLED, Stats.MINIMUM)),
                "received", queues.source().metricNumberOfMessagesReceived(options(AlarmNames.STALLED, Stats.SUM)),
                "deleted", queues.source().metricNumberOfMessagesDeleted(options(AlarmNames.STALLED, Stats.SUM))))
            .label("minutes with orders waiting and none received or deleted")
            .period(period(AlarmNames.STALLED))
            .build(),
        "For " + stalled + " minutes orders were waiting in " + OrderQueues.SOURCE_QUEUE_NAME + " and none was received"
            + " or deleted: nothing consumes the queue (the mapping disabled, on purpose or not, deleted or failing to"
            + " poll; every invocation hung). A working mapping ends an invocation within the function's timeout of "
            + budget.functionTimeout().toSeconds() + " s. OK means five minutes in which one was received or deleted,"
            + " or some in which none was waiting. Check the event source mapping: " + RunbookSections.see(RunbookSections.MESSAGES_SITTING) + ".");
    // The function counts a booking it finds at the partner after the order's late-booking hold had ended
    // (issue 39): the partner booked later than its contract lets it, and the order may have been freed.
    raise(AlarmNames.BOOKED_AFTER_HOLD, functionMetric(MetricNames.BOOKING_ADOPTED_AFTER_HOLD, AlarmNames.BOOKED_AFTER_HOLD),
        "The partner booked an order after its late-booking hold of " + budget.lateBookingHold().toSeconds() + " s had"
            + " ended: later than its contract's " + budget.partnerContractMaximum().toSeconds() + " s after the request."
            + " An order freed after its hold may have had a second booking request, so a second courier is possible:"
            + " check that order with ./fulfil-ops order and ask the partner why it booked late. OK means five minutes"
            + " without such a booking: " + RunbookSections.see(RunbookSections.BOOKED_AFTER_HOLD) + ".");
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
   * namespace and the Service dimension), over the period and with the statistic of the alarm that reads it.
   */
  private Metric functionMetric(String name, String alarm) {
    return functionMetric(name, alarm, statistic(alarm));
  }

  /** One of the function's counts as one of an expression's metrics: the expression says which statistic. */
  private Metric functionMetric(String name, String alarm, String statistic) {
    return new Metric(MetricProps.builder()
        .namespace(MetricNames.NAMESPACE)
        .metricName(name)
        .dimensionsMap(Map.of("Service", MetricNames.SERVICE))
        .statistic(statistic)
        .period(period(alarm))
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
