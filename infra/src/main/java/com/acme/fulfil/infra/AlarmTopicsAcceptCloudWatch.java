package com.acme.fulfil.infra;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.cloudwatch.CfnAlarm;
import software.amazon.awscdk.services.sns.CfnTopicPolicy;
import software.constructs.IConstruct;
import software.constructs.IValidation;

/**
 * Stops {@code cdk synth} when an alarm of the stack notifies an SNS topic that CloudWatch may not publish
 * to. A topic policy replaces SNS's default policy, so a topic whose policy holds only a Deny (the TLS one)
 * refuses CloudWatch: the alarm's history then says "is not authorized to perform: SNS:Publish" and nobody
 * is paged, while everything the stack can show locally looks fine. Each alarm action and OK action must be
 * a topic of this stack with a policy statement that allows {@code cloudwatch.amazonaws.com} to
 * {@code sns:Publish}, scoped with {@code aws:SourceAccount} and {@code aws:SourceArn}.
 */
final class AlarmTopicsAcceptCloudWatch implements IValidation {
  static final String CLOUDWATCH = "cloudwatch.amazonaws.com";

  private final Stack stack;

  AlarmTopicsAcceptCloudWatch(Stack stack) {
    this.stack = stack;
  }

  @Override
  public List<String> validate() {
    Set<String> publishable = topicsCloudWatchMayPublishTo();
    List<String> problems = new ArrayList<>();
    for (IConstruct construct : stack.getNode().findAll()) {
      if (construct instanceof CfnAlarm alarm) {
        String name = String.valueOf(stack.resolve(alarm.getAlarmName()));
        check(name, "alarm action", alarm.getAlarmActions(), publishable, problems);
        check(name, "OK action", alarm.getOkActions(), publishable, problems);
      }
    }
    return problems;
  }

  private void check(String alarm, String kind, List<String> actions, Set<String> publishable, List<String> problems) {
    // Resolved whole: CDK may hold the list as one encoded token, which cannot be resolved element by element.
    for (Object resolved : asList(actions == null ? null : stack.resolve(actions))) {
      String topic = resolved instanceof Map<?, ?> ref && ref.get("Ref") instanceof String id ? id : null;
      if (topic == null) {
        problems.add(alarm + ": its " + kind + " " + resolved + " is not a topic of this stack, so nothing here shows that"
            + " CloudWatch may publish to it; notify a topic the stack defines, with a policy that allows " + CLOUDWATCH + ".");
      } else if (!publishable.contains(topic)) {
        problems.add(alarm + ": its " + kind + " is topic " + topic + ", whose policy does not allow " + CLOUDWATCH
            + " to sns:Publish with aws:SourceAccount and aws:SourceArn conditions. A topic policy replaces SNS's default"
            + " policy, so CloudWatch is refused (\"is not authorized to perform: SNS:Publish\") and nobody is paged.");
      }
    }
  }

  /** The logical ids of the stack's topics whose policy lets CloudWatch alarms of this account publish. */
  private Set<String> topicsCloudWatchMayPublishTo() {
    Set<String> topics = new HashSet<>();
    for (IConstruct construct : stack.getNode().findAll()) {
      if (construct instanceof CfnTopicPolicy policy && allowsCloudWatch(stack.resolve(policy.getPolicyDocument()))) {
        for (Object topic : (Collection<?>) stack.resolve(policy.getTopics())) {
          if (topic instanceof Map<?, ?> ref && ref.get("Ref") instanceof String id) {
            topics.add(id);
          }
        }
      }
    }
    return topics;
  }

  private static boolean allowsCloudWatch(Object document) {
    if (!(document instanceof Map<?, ?> policy)) {
      return false;
    }
    return asList(policy.get("Statement")).stream().anyMatch(statement -> statement instanceof Map<?, ?> s
        && "Allow".equals(s.get("Effect"))
        && s.get("Principal") instanceof Map<?, ?> principal && asList(principal.get("Service")).contains(CLOUDWATCH)
        && asList(s.get("Action")).stream().map(a -> String.valueOf(a).toLowerCase(Locale.ROOT))
            .anyMatch(a -> a.equals("sns:publish") || a.equals("sns:*"))
        && s.get("Condition") instanceof Map<?, ?> conditions
        && conditionKeys(conditions).containsAll(Set.of("aws:sourceaccount", "aws:sourcearn")));
  }

  /** The condition keys of a statement, whatever the operator, in lower case (IAM compares them so). */
  private static Set<String> conditionKeys(Map<?, ?> conditions) {
    Set<String> keys = new HashSet<>();
    conditions.values().forEach(operator -> {
      if (operator instanceof Map<?, ?> byKey) {
        byKey.keySet().forEach(key -> keys.add(String.valueOf(key).toLowerCase(Locale.ROOT)));
      }
    });
    return keys;
  }

  /** A policy element that IAM takes as one value or a list of them. */
  private static List<?> asList(Object value) {
    return value instanceof List<?> list ? list : value == null ? List.of() : List.of(value);
  }
}
