package com.acme.fulfil.ops;

import com.acme.fulfil.contract.settings.OnCallSettings;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code check}: what someone changed by hand, and what the stack was deployed with that is not committed. In
 * AWS, CloudFormation's drift detection compares each resource with the template it was deployed with; the
 * settings that template records are compared with the committed infra/cdk.json, which drift detection cannot
 * see (a {@code -c} value, an uncommitted edit); and the committed alarm address must have confirmed its
 * subscription, which no template says. The local stack has no CloudFormation: {@link LocalQueueCheck}. Each
 * finding is one sentence; "no drift found" only when every part could be checked.
 */
final class DriftCheck {
  /** How often drift detection is asked whether it is done. */
  static final Duration POLL_EVERY = Duration.ofSeconds(2);
  /** A stack of this size is compared in well under a minute; one that takes longer is reported as not checked. */
  static final Duration DETECTION_LIMIT = Duration.ofMinutes(3);

  private final Stack stack;
  private final String stackName;
  private final Duration detectionLimit;
  private final ObjectMapper json = new ObjectMapper();
  private final List<String> lines = new ArrayList<>();
  private final List<String> findings = new ArrayList<>();
  private final List<String> notChecked = new ArrayList<>();

  DriftCheck(Stack stack, String stackName, Duration detectionLimit) {
    this.stack = stack;
    this.stackName = stackName;
    this.detectionLimit = detectionLimit;
  }

  Report check() throws InterruptedException {
    if (stack.local()) {
      lines.add("checked " + LocalQueueCheck.CHECKED + " of " + stack.description() + " against the timing budget"
          + " ./run-local --serve created it from (visibility " + stack.budget().visibilityTimeout().toSeconds()
          + " s, DLQ after " + stack.budget().maxReceiveCount() + " receives)");
      lines.add("not checked on the local stack, which has no CloudFormation to compare with a template: "
          + LocalQueueCheck.NOT_CHECKED);
      findings.addAll(LocalQueueCheck.findings(stack));
    } else {
      deployed();
    }
    notChecked.forEach(why -> lines.add("not checked: " + why));
    lines.add(!findings.isEmpty() ? findings.size() + " finding(s):"
        : notChecked.isEmpty() ? "no drift found" : "drift not known: " + notChecked.size() + " part(s) not checked");
    findings.forEach(finding -> lines.add("  - " + finding));
    ObjectNode out = json.createObjectNode();
    out.set("drift", findings.isEmpty() && !notChecked.isEmpty() ? out.nullNode() : out.booleanNode(!findings.isEmpty()));
    findings.forEach(out.putArray("findings")::add);
    notChecked.forEach(out.putArray("not_checked")::add);
    return new Report(lines, out, findings.isEmpty() && notChecked.isEmpty() ? 0 : 1);
  }

  private void deployed() throws InterruptedException {
    lines.add("checked " + stack.description() + ": each resource against the template it was deployed with"
        + " (CloudFormation's drift detection), the settings that template records against " + CommittedSettings.NAME
        + ", and the alarm address's subscription");
    var cloudFormation = stack.aws().cloudFormation().orElseThrow();
    StackDrift.Outcome drift = new StackDrift(cloudFormation, stackName, POLL_EVERY, detectionLimit).detect();
    findings.addAll(drift.findings());
    drift.notChecked().ifPresent(notChecked::add);
    queueReaders();
    CommittedSettings committed = stack.committed().orElseThrow();
    deployedWith(cloudFormation.getTemplateSummary(r -> r.stackName(stackName)).metadata()).ifPresentOrElse(
        deployedWith -> findings.addAll(committed.differencesFrom(deployedWith)),
        () -> notChecked.add("the stack's template records no settings (deployed before check compared them): deploy"
            + " once from the committed " + CommittedSettings.NAME + ", and check compares them from then on"));
    Optional.ofNullable(committed.values().get(OnCallSettings.ALARM_EMAIL)).filter(email -> !confirmed(email))
        .ifPresent(email -> findings.add(email + ", whom " + CommittedSettings.NAME + " commits for the alarms, has no"
            + " confirmed subscription to " + stack.alarmTopicArn().orElseThrow() + ": no alarm reaches it until it"
            + " follows the link in AWS's e-mail (a deploy from the committed file subscribes it)"));
  }

  /**
   * Every event source mapping on the queue: one made by hand is no resource of the stack's, so drift detection cannot
   * see it, and whatever it invokes takes orders this stack then never books, dead-letters or counts.
   */
  private void queueReaders() {
    List<String> readers = stack.aws().lambda().orElseThrow()
        .listEventSourceMappingsPaginator(r -> r.eventSourceArn(stack.queueArn())).eventSourceMappings().stream()
        .map(mapping -> mapping.uuid() + " to " + mapping.functionArn() + " (" + mapping.state() + ")").toList();
    if (readers.size() > 1) {
      findings.add(stack.queueUrl() + " is read by " + readers.size() + " event source mappings, where the stack makes one ("
          + String.join("; ", readers) + "): delete the one the stack did not create (aws lambda"
          + " delete-event-source-mapping --uuid ...), as the orders it takes are not booked by this stack");
    }
  }

  /** The settings the template's metadata records, if it records them. */
  private Optional<Map<String, String>> deployedWith(String templateMetadata) {
    try {
      JsonNode recorded = json.readTree(templateMetadata == null ? "{}" : templateMetadata).path(OnCallSettings.DEPLOYED_WITH);
      Map<String, String> settings = new LinkedHashMap<>();
      recorded.properties().forEach(setting -> settings.put(setting.getKey(), setting.getValue().asText()));
      return recorded.isObject() ? Optional.of(settings) : Optional.empty();
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  private boolean confirmed(String email) {
    return stack.aws().sns().orElseThrow()
        .listSubscriptionsByTopicPaginator(r -> r.topicArn(stack.alarmTopicArn().orElseThrow())).subscriptions().stream()
        .anyMatch(s -> "email".equals(s.protocol()) && email.equals(s.endpoint())
            && !"PendingConfirmation".equals(s.subscriptionArn()));
  }
}
