package com.acme.fulfil.ops;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.AlarmHistoryItem;
import software.amazon.awssdk.services.cloudwatch.model.HistoryItemType;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;
import software.amazon.awssdk.services.cloudwatch.model.ScanBy;
import software.amazon.awssdk.services.cloudwatch.model.StateValue;
import software.amazon.awssdk.services.sns.model.Subscription;

/**
 * {@code drill}: asks AWS itself whether a page reaches on-call, which no emulator and no template can say (the
 * topic's policy, SNS's delivery, a subscription nobody confirmed). It puts one of the stack's alarms into ALARM
 * with SetAlarmState, which makes CloudWatch run the alarm's actions as for a real change of state; reads the
 * alarm's action history until CloudWatch records its publish to the alarm topic as done or failed; names every
 * subscription of the topic still pending confirmation; and sets the alarm back to the state it had, whatever
 * happened. Any of those failing is a failed drill: exit status 1.
 */
final class PageDrill {
  /** How often the alarm's action history is read; CloudWatch records an action within seconds of the change. */
  static final Duration POLL_EVERY = Duration.ofSeconds(5);
  /** An action not recorded by then is reported as not known to have paged anyone. */
  static final Duration ACTION_LIMIT = Duration.ofMinutes(3);
  /** What SNS lists as a subscription's ARN until its endpoint confirms it: nothing is delivered there. */
  static final String PENDING_CONFIRMATION = "PendingConfirmation";
  /** How CloudWatch's action history begins an SNS action it executed, and one it could not. */
  static final String SUCCEEDED = "Successfully executed action ";
  static final String FAILED = "Failed to execute action ";
  /** What the page itself says: whoever reads it knows at once that nothing is wrong. */
  static final String DRILL_REASON = "fulfil-ops drill: a test of the page, not an incident; the alarm is set back at once";
  private static final String SET_BACK_REASON = "fulfil-ops drill over: set back to the state the alarm had";

  private final Stack stack;
  private final Clock clock;
  private final Duration pollEvery;
  private final Duration actionLimit;
  private final List<String> lines = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();

  PageDrill(Stack stack, Clock clock, Duration pollEvery, Duration actionLimit) {
    this.stack = stack;
    this.clock = clock;
    this.pollEvery = pollEvery;
    this.actionLimit = actionLimit;
  }

  Report run() throws InterruptedException {
    if (stack.local()) {
      throw new OpsException("drill asks CloudWatch and SNS whether a page reaches on-call, and the local stack has"
          + " neither: run it against the deployed stack (./run-local reports which of the local alarms fired)");
    }
    CloudWatchClient cloudWatch = stack.aws().cloudWatch().orElseThrow();
    String topic = stack.alarmTopicArn().orElseThrow();
    ObjectNode out = new ObjectMapper().createObjectNode();
    List<String> pending = subscriptions(topic, out);
    Optional<MetricAlarm> drilled = cloudWatch.describeAlarmsPaginator(r -> r.alarmNames(AlarmNames.ALL)).metricAlarms()
        .stream().filter(alarm -> alarm.alarmActions().contains(topic) && alarm.stateValue() != StateValue.ALARM)
        .findFirst();
    out.putNull("alarm").putNull("action").putNull("published").putNull("set_back_to");
    drilled.ifPresentOrElse(alarm -> out.put("alarm", alarm.alarmName()), () -> failures.add("no alarm of "
        + stack.description() + " that notifies " + topic + " is out of ALARM, so none can be set to ALARM to page:"
        + " drill again when one is OK (aws cloudwatch describe-alarms --state-value ALARM names those in ALARM)"));
    if (drilled.isPresent()) {
      drill(cloudWatch, drilled.get(), topic, out);
    }
    pending.forEach(endpoint -> failures.add(endpoint + " has not confirmed its subscription to " + topic
        + ": nobody is paged there until it follows the link in AWS's e-mail"));
    lines.add(failures.isEmpty() ? "the drill passed: CloudWatch published the page to " + topic + " and every"
        + " subscription is confirmed" : "the drill FAILED: " + failures.size() + " problem(s):");
    failures.forEach(failure -> lines.add("  - " + failure));
    failures.forEach(out.putArray("failures")::add);
    return new Report(lines, out, failures.isEmpty() ? 0 : 1);
  }

  /** The topic's subscriptions: the pending ones by endpoint, and a failure when none is confirmed. */
  private List<String> subscriptions(String topic, ObjectNode out) {
    List<Subscription> subscriptions = stack.aws().sns().orElseThrow()
        .listSubscriptionsByTopicPaginator(r -> r.topicArn(topic)).subscriptions().stream().toList();
    List<String> pending = subscriptions.stream().filter(s -> PENDING_CONFIRMATION.equals(s.subscriptionArn()))
        .map(s -> s.protocol() + " " + s.endpoint()).toList();
    long confirmed = subscriptions.size() - pending.size();
    lines.add(topic + " has " + confirmed + " confirmed subscription(s), " + pending.size() + " pending confirmation");
    if (confirmed == 0) {
      failures.add(topic + " has no confirmed subscription: nobody is paged, whatever CloudWatch publishes");
    }
    out.put("confirmed_subscriptions", confirmed);
    pending.forEach(out.putArray("pending_subscriptions")::add);
    return pending;
  }

  /** ALARM, the action CloudWatch records for it, and back to the alarm's own state even when something failed. */
  private void drill(CloudWatchClient cloudWatch, MetricAlarm alarm, String topic, ObjectNode out)
      throws InterruptedException {
    String name = alarm.alarmName();
    StateValue before = alarm.stateValue();
    try {
      cloudWatch.setAlarmState(r -> r.alarmName(name).stateValue(StateValue.ALARM).stateReason(DRILL_REASON));
      lines.add("set " + name + " to ALARM (it was " + before + ")");
      Optional<String> action = action(cloudWatch, name, topic, alarm.stateUpdatedTimestamp());
      out.put("action", action.orElse(null));
      out.put("published", action.map(text -> text.startsWith(SUCCEEDED)).orElse(null));
      action.ifPresentOrElse(text -> lines.add("CloudWatch's action history: " + text), () -> failures.add("CloudWatch"
          + " recorded no action on " + topic + " for " + name + " within " + actionLimit.toSeconds() + " s: no page is"
          + " known to have been sent (aws cloudwatch describe-alarm-history --alarm-name " + name
          + " --history-item-type Action shows what it records later)"));
      action.filter(text -> !text.startsWith(SUCCEEDED)).ifPresent(text -> failures.add("CloudWatch could not publish"
          + " the page, so no alarm reaches on-call: " + text));
    } finally {
      setBack(cloudWatch, name, before, out);
    }
  }

  /**
   * The first SNS action on the topic CloudWatch recorded after the drill's own change of state, read until the limit.
   * The change is found by its reason, in CloudWatch's history and on CloudWatch's clock: a clock here that runs wrong
   * cannot pick an older action, and CloudWatch setting the alarm back first (metric alarms "return to their actual
   * state quickly, often within seconds", SetAlarmState in the API reference) cannot hide the drill's own.
   *
   * @param since when the alarm last changed state before the drill: its history from then on
   */
  private Optional<String> action(CloudWatchClient cloudWatch, String name, String topic, Instant since)
      throws InterruptedException {
    Instant deadline = clock.instant().plus(actionLimit);
    while (true) {
      List<AlarmHistoryItem> history = cloudWatch.describeAlarmHistoryPaginator(r -> r.alarmName(name).startDate(since)
          .scanBy(ScanBy.TIMESTAMP_ASCENDING)).alarmHistoryItems().stream().toList();
      Optional<String> recorded = history.stream()
          .dropWhile(item -> !(item.historyItemType() == HistoryItemType.STATE_UPDATE
              && String.valueOf(item.historyData()).contains(DRILL_REASON)))
          .filter(item -> item.historyItemType() == HistoryItemType.ACTION).map(AlarmHistoryItem::historySummary)
          .filter(text -> text.startsWith(SUCCEEDED + topic) || text.startsWith(FAILED + topic)).findFirst();
      if (recorded.isPresent() || !clock.instant().isBefore(deadline)) {
        return recorded;
      }
      Thread.sleep(pollEvery.toMillis());
    }
  }

  /** Its own state again: a drill leaves no alarm in ALARM, and one it cannot set back is said with the command. */
  private void setBack(CloudWatchClient cloudWatch, String name, StateValue before, ObjectNode out) {
    try {
      cloudWatch.setAlarmState(r -> r.alarmName(name).stateValue(before).stateReason(SET_BACK_REASON));
      lines.add("set " + name + " back to " + before);
      out.put("set_back_to", before.toString());
    } catch (SdkException e) {
      failures.add("could not set " + name + " back to " + before + " (" + e.getMessage() + "): set it by hand, aws"
          + " cloudwatch set-alarm-state --alarm-name " + name + " --state-value " + before + " --state-reason \""
          + SET_BACK_REASON + "\"");
    }
  }
}
