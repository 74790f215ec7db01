package com.acme.fulfil.ops;

import com.acme.fulfil.contract.oncall.RunbookSections;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.DescribeStackDriftDetectionStatusResponse;
import software.amazon.awssdk.services.cloudformation.model.PropertyDifference;
import software.amazon.awssdk.services.cloudformation.model.StackDriftDetectionStatus;
import software.amazon.awssdk.services.cloudformation.model.StackDriftStatus;
import software.amazon.awssdk.services.cloudformation.model.StackResourceDrift;
import software.amazon.awssdk.services.cloudformation.model.StackResourceDriftStatus;

/**
 * CloudFormation's drift detection on the stack: each resource against the template it was deployed with, property
 * by property, as CloudFormation compares them (what someone changed or deleted in the console or with the CLI).
 *
 * @param giveUpAfter how long detection may run before it counts as not checked (it polls every {@code pollEvery})
 */
record StackDrift(CloudFormationClient cloudFormation, String stackName, Duration pollEvery, Duration giveUpAfter) {

  /** @param notChecked why drift is not known, for part or all of the stack: never to be read as no drift */
  record Outcome(List<String> findings, Optional<String> notChecked) {}

  Outcome detect() throws InterruptedException {
    String id = cloudFormation.detectStackDrift(r -> r.stackName(stackName)).stackDriftDetectionId();
    long deadline = System.nanoTime() + giveUpAfter.toNanos();
    DescribeStackDriftDetectionStatusResponse status = status(id);
    while (status.detectionStatus() == StackDriftDetectionStatus.DETECTION_IN_PROGRESS) {
      if (System.nanoTime() > deadline) {
        return new Outcome(List.of(), Optional.of("CloudFormation's drift detection " + id + " was still running after "
            + giveUpAfter.toSeconds() + " s: run check again in a few minutes"));
      }
      Thread.sleep(pollEvery);
      status = status(id);
    }
    // A failed detection still reports the resources it did check; the others' drift is not known.
    Optional<String> notChecked = status.detectionStatus() == StackDriftDetectionStatus.DETECTION_FAILED
        ? Optional.of("CloudFormation's drift detection failed for part of the stack (" + status.detectionStatusReason()
            + "): run check again; if it fails again, the reason says which resource it could not read")
        : status.stackDriftStatus() == StackDriftStatus.IN_SYNC || status.stackDriftStatus() == StackDriftStatus.DRIFTED
            ? Optional.empty()
            : Optional.of("CloudFormation's drift detection ended without saying whether the stack drifted ("
                + status.stackDriftStatusAsString() + "): run check again");
    List<String> findings = cloudFormation.describeStackResourceDriftsPaginator(r -> r.stackName(stackName)
            .stackResourceDriftStatusFilters(StackResourceDriftStatus.MODIFIED, StackResourceDriftStatus.DELETED))
        .stream().flatMap(page -> page.stackResourceDrifts().stream()).map(StackDrift::finding).toList();
    return new Outcome(findings, notChecked);
  }

  private DescribeStackDriftDetectionStatusResponse status(String id) {
    return cloudFormation.describeStackDriftDetectionStatus(r -> r.stackDriftDetectionId(id));
  }

  /**
   * A deploy does not undo drift: CloudFormation updates only what the template changes, and cannot update a
   * resource deleted outside it. So each finding says to put the resource back, or to commit the change.
   */
  private static String finding(StackResourceDrift drift) {
    String resource = drift.logicalResourceId() + " (" + drift.resourceType() + " " + drift.physicalResourceId() + ")";
    if (drift.stackResourceDriftStatus() == StackResourceDriftStatus.DELETED) {
      return resource + " was deleted outside CloudFormation, which does not recreate it on a deploy: recreate it as"
          + " the deployed template says";
    }
    String paused = drift.resourceType().equals("AWS::Lambda::EventSourceMapping")
        ? " (a mapping paused for a partner outage: " + RunbookSections.see(RunbookSections.PARTNER_OUTAGE) + ")" : "";
    return resource + " was changed outside CloudFormation: " + drift.propertyDifferences().stream()
        .map(StackDrift::difference).collect(Collectors.joining("; ")) + "; set it back as the template says, or"
        + " commit the change to " + CommittedSettings.NAME + " and deploy if it was meant" + paused;
  }

  private static String difference(PropertyDifference difference) {
    // A value put into the function's environment by hand may be a secret: name the variable, never its value.
    if (difference.propertyPath().startsWith("/Environment/Variables")) {
      String how = switch (difference.differenceType()) {
        case ADD -> "added";
        case REMOVE -> "removed";
        default -> "changed";
      };
      return difference.propertyPath() + " was " + how + " (its value is not shown: it may be a secret)";
    }
    return switch (difference.differenceType()) {
      case ADD -> difference.propertyPath() + " " + difference.actualValue() + " was added";
      case REMOVE -> difference.propertyPath() + " was removed (the template has " + difference.expectedValue() + ")";
      default -> difference.propertyPath() + " is " + difference.actualValue() + ", the template says "
          + difference.expectedValue();
    };
  }
}
