package com.acme.fulfil.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.cxapi.SynthesisMessage;

/** cdk-nag's AWS Solutions checks run inside the stack; here every finding must be settled. */
class CdkNagTest {
  private final FulfilOrderStack stack = Synth.defaultStack();

  @Test
  void noAwsSolutionsFindingIsLeftOpen() {
    Annotations annotations = Annotations.fromStack(stack);
    assertThat(describe(annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")))).isEmpty();
    assertThat(describe(annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")))).isEmpty();
  }

  /**
   * None: the stack creates no secret (SMG4 had nothing to settle), and AwsSolutions-SNS2, which the
   * topic's suppression named, is not a rule of the pinned cdk-nag; a suppression of a rule that never
   * runs only hides a finding a later version might raise.
   */
  @Test
  void noFindingIsSuppressed() {
    Map<?, ?> resources = (Map<?, ?>) Synth.defaults().toJSON().get("Resources");
    Map<String, String> reasons = resources.values().stream()
        .map(resource -> (Map<?, ?>) ((Map<?, ?>) resource).get("Metadata"))
        .filter(Objects::nonNull)
        .map(metadata -> (Map<?, ?>) metadata.get("cdk_nag"))
        .filter(Objects::nonNull)
        .flatMap(nag -> ((List<?>) nag.get("rules_to_suppress")).stream())
        .map(rule -> (Map<?, ?>) rule)
        .collect(Collectors.toMap(rule -> (String) rule.get("id"), rule -> (String) rule.get("reason")));

    assertThat(reasons).isEmpty();
  }

  private static List<String> describe(List<SynthesisMessage> messages) {
    return messages.stream().map(m -> m.getId() + ": " + m.getEntry().getData()).toList();
  }
}
