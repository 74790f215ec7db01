package com.acme.fulfil.runbook;

import com.acme.fulfil.contract.MetricNames;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.acme.fulfil.local.scenario.RunbookDrill;
import com.acme.fulfil.contract.AlarmSignal;
import com.acme.fulfil.contract.InconsistentTimingException;
import com.acme.fulfil.contract.TimingBudget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/runbook.md names what the code names: the metrics and log fields the function writes, the
 * stack's outputs and alarms, the sentence synth prints for a bad timing change, and the drill
 * {@code ./run-local --serve} prints. A rename in the code fails here until the runbook follows.
 */
class RunbookAgreesWithTheCodeTest {
  private final Repository repository = Repository.containingThisTest();
  private final RunbookDocument runbook = repository.runbook();

  @Test
  void everyMetricTheFunctionEmitsIsInTheMetricsTableAndNoOther() {
    assertThat(runbook.section("Metrics").firstColumnNames())
        .as("the function's metrics table in docs/runbook.md, against FulfilmentMetrics")
        .containsExactlyInAnyOrderElementsOf(repository.metricNames());
  }

  @Test
  void theMetricsThePartnerFailingAlarmReadsAreOnesTheFunctionEmits() {
    assertThat(repository.metricNames()).as("FulfilmentMetrics, against the names AlarmSignal reads")
        .contains(MetricNames.TRANSIENT_FAILURE, MetricNames.ORDER_BOOKED, MetricNames.BOOKING_ADOPTED);
  }

  @Test
  void everyFieldOfTheFunctionsLogLinesIsInTheLogFieldsTableAndNoOther() {
    assertThat(runbook.section("Log fields").firstColumnNames())
        .as("the log fields table in docs/runbook.md, against JsonLogFormatter and every MDC key")
        .containsExactlyInAnyOrderElementsOf(repository.logFields());
  }

  @Test
  void runbookReadsEveryOutputTheStackDeclaresAndNoOther() {
    Set<String> read = new LinkedHashSet<>();
    Matcher outputKey = Pattern.compile("OutputKey=='(\\w+)'").matcher(runbook.text());
    while (outputKey.find()) {
      read.add(outputKey.group(1));
    }
    assertThat(read).containsExactlyInAnyOrderElementsOf(repository.stackOutputs());
  }

  @Test
  void everyAlarmTheStackRaisesHasItsOwnProcedure() {
    List<String> titles = runbook.sections().stream().map(RunbookDocument.Section::title).toList();
    for (String alarm : repository.alarmNames()) {
      assertThat(titles).as("a section titled with `%s`", alarm).anyMatch(title -> title.contains("`" + alarm + "`"));
    }
  }

  @Test
  void timingChangeShowsTheRefusalSynthPrintsAndTheValueThatSettlesIt() {
    RunbookDocument.Section section = runbook.section("Changing a timing number");
    Map<String, String> settings = new LinkedHashMap<>();
    Matcher setting = Pattern.compile("\"(\\w+Seconds)\": (\\d+)").matcher(section.text());
    while (setting.find()) {
      settings.put(setting.group(1), setting.group(2));
    }
    assertThat(settings).as("the section's two context values, the change and its consequence").hasSize(2);
    List<String> names = new ArrayList<>(settings.keySet());

    InconsistentTimingException refusal = catchThrowableOfType(InconsistentTimingException.class,
        () -> TimingBudget.fromSettings(Map.of(names.get(0), settings.get(names.get(0)))::get));
    assertThat(String.join("\n", section.codeBlocks("text"))).contains(refusal.getMessage());

    TimingBudget settled = TimingBudget.fromSettings(settings::get);
    assertThat(section.text()).contains(
        String.format(Locale.ROOT, "visibility %,d s", settled.visibilityTimeout().toSeconds()),
        String.format(Locale.ROOT, "alarm at %,d s", settled.longestAgeSqsSees().toSeconds()));
  }

  @Test
  void serveModePrintsTheRunbooksDrillWhoseStepsAreTheProceduresOwnCommands() {
    RunbookDocument.Section practice = runbook.section("Practise on the local stack");
    assertThat(practice.codeBlocks("sh")).as("the drill as --serve prints it").contains(RunbookDrill.text());

    List<String> procedures = runbook.sections().stream()
        .filter(section -> section != practice)
        .flatMap(section -> section.commands().stream())
        .toList();
    for (String command : RunbookDocument.shellCommands(RunbookDrill.text())) {
      if ((command.contains("aws ") || command.contains("curl ")) && !command.contains("send-message")) {
        assertThat(procedures).as("the drill's step is a procedure's command, word for word").contains(command);
      }
    }
  }
}
