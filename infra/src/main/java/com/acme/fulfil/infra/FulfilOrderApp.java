package com.acme.fulfil.infra;

import com.acme.fulfil.contract.settings.DeployedNames;
import com.acme.fulfil.contract.settings.OnCallSettings;
import com.acme.fulfil.contract.settings.Settings;
import com.acme.fulfil.contract.timing.Capacity;
import com.acme.fulfil.contract.timing.TimingBudget;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awscdk.App;

/**
 * {@code cdk synth} / {@code cdk deploy} entry point. Reads every setting from CDK context once; a
 * set that would reproduce the incident or cannot work stops the synth with the sentences that say
 * why, not with a stack trace.
 */
public final class FulfilOrderApp {
  /** Optional: the busiest hour's orders, which synth refuses if the stack cannot book them at the partner's worst. */
  static final String PEAK_ORDERS_PER_HOUR = "peakOrdersPerHour";

  private FulfilOrderApp() {}

  public static void main(String[] args) {
    App app = new App();
    if (define(app, System.err).isEmpty()) {
      System.exit(1);
    }
    app.synth();
  }

  /** The stack the app's context describes, or empty after explaining on {@code err} why there is none. */
  static Optional<FulfilOrderStack> define(App app, PrintStream err) {
    Function<String, String> context = key -> contextValue(app, key);
    List<String> refusals = new ArrayList<>();
    TimingBudget budget = readOrRefuse(() -> TimingBudget.fromSettings(context), refusals);
    DeploymentSettings deployment = readOrRefuse(() -> DeploymentSettings.fromContext(context), refusals);
    Optional<Integer> peakOrdersPerHour = readOrRefuse(() -> new Settings(context).integer(PEAK_ORDERS_PER_HOUR), refusals);
    Capacity capacity = budget == null || deployment == null ? null : budget.capacity(deployment.maxConcurrency());
    if (capacity != null && peakOrdersPerHour != null) {
      readOrRefuse(() -> {
        peakOrdersPerHour.ifPresent(capacity::requireAtLeast);
        return capacity;
      }, refusals);
    }
    boolean ciSynthOnly = "true".equals(context.apply(StandInSettings.CI_SYNTH_ONLY));
    if (deployment != null && !ciSynthOnly) {
      refusals.addAll(StandInSettings.in(deployment));
    }
    if (!refusals.isEmpty()) {
      err.println("fulfil-order: cdk synth stopped, nothing was synthesized.");
      refusals.forEach(err::println);
      return Optional.empty();
    }
    err.println("fulfil-order: capacity: the stack " + capacity.sentence() + "; the backlog alarm fires above "
        + capacity.backlogAlarmThreshold() + " waiting orders" + peakOrdersPerHour.map(peak -> "; peakOrdersPerHour "
        + peak + " fits at the worst case").orElse(" (no peakOrdersPerHour set to check it against)") + ".");
    err.println("fulfil-order: retries: " + budget.retrySentence() + ".");
    FulfilOrderStack stack = new FulfilOrderStack(app, DeployedNames.STACK, budget, deployment);
    // What this deploy read, -c values included. Drift detection compares the resources with this template;
    // only ./fulfil-ops check, comparing these with the committed infra/cdk.json, sees a deploy from other settings.
    Map<String, String> deployedWith = new LinkedHashMap<>();
    OnCallSettings.RECORDED.forEach(key -> Optional.ofNullable(context.apply(key))
        .ifPresent(value -> deployedWith.put(key, value)));
    stack.addMetadata(OnCallSettings.DEPLOYED_WITH, deployedWith);
    if (ciSynthOnly) {
      stack.addMetadata(StandInSettings.MARKER, "synthesized by CI with stand-in settings: never to be deployed");
    }
    return Optional.of(stack);
  }

  private static <T> T readOrRefuse(Supplier<T> read, List<String> refusals) {
    try {
      return read.get();
    } catch (IllegalArgumentException refused) {
      refusals.add(refused.getMessage());
      return null;
    }
  }

  /**
   * {@code -c key=value} arrives as a string, but a number in cdk.json arrives as a JSON number that
   * Java may see as 600.0; a whole number is handed on as "600" so it reads like the command line.
   */
  private static String contextValue(App app, String key) {
    Object value = app.getNode().tryGetContext(key);
    if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
      return Long.toString(n.longValue());
    }
    return value == null ? null : value.toString();
  }
}
