package com.acme.fulfil.runbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.acme.fulfil.contract.alarms.AlarmPage;
import com.acme.fulfil.contract.timing.InconsistentTimingException;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.scenario.LocalStandIn;
import com.acme.fulfil.local.scenario.RunbookDrill;
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
 * docs/runbook.md names what the code names and states the numbers the code computes: it opens with
 * a table of every alarm the stack raises, its numbers are one generated table, its prose types none
 * of them again, and it names the stack's outputs, the sentence synth prints for a bad timing change
 * and the drill {@code ./run-local --serve} prints. docs/design.md holds the metrics and log fields the
 * function writes. A change in the code fails here until the docs follow.
 */
class RunbookAgreesWithTheCodeTest {
  /**
   * What on-call reads in a minute: every alarm's page, its first command and what "fixed" looks like, and a
   * rehearsal of each page the local stack plays, cause, page and fix.
   */
  private static final int RUNBOOK_MAX_LINES = 435;
  /**
   * A duration or count typed in prose: digits followed by a unit, or a number word followed by a unit
   * of time. The runbook's numbers live in its table and its commands, not in its sentences.
   */
  private static final Pattern TYPED_NUMBER = Pattern.compile(
      "\\b\\d[\\d,.]*\\s*(?:s|ms|seconds?|minutes?|min|hours?|h|days?|receives|tries|orders|messages|%)(?![\\w-])"
          + "|\\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|fifteen|twenty|thirty)"
          + "\\s+(?:seconds|minutes|hours|days)\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern FENCED = Pattern.compile("(?ms)^\\s*```.*?^\\s*```\\s*$");
  private static final Pattern SECTION_NUMBER = Pattern.compile("^(\\d+)\\. ");

  private final Repository repository = Repository.containingThisTest();
  private final RunbookDocument runbook = repository.runbook();

  @Test
  void runbookIsShortAndOpensWithTheTableOfEveryAlarmAndItsSection() {
    assertThat(runbook.text().lines().count()).as("docs/runbook.md's lines").isLessThanOrEqualTo(RUNBOOK_MAX_LINES);
    RunbookDocument.Section first = runbook.sections().getFirst();
    assertThat(first.title()).as("the runbook's first section").startsWith("What paged");
    assertThat(repository.alarmNames()).as("the alarms FulfilOrderAlarms raises, against the contract's AlarmNames")
        .containsExactlyInAnyOrderElementsOf(com.acme.fulfil.contract.alarms.AlarmNames.ALL);
    assertThat(first.firstColumnNames()).as("the alarms of the opening table, against FulfilOrderAlarms")
        .containsExactlyInAnyOrderElementsOf(repository.alarmNames());
    List<List<String>> rows = tableRows(first);
    assertThat(rows).as("the opening table's complaint with no alarm").anyMatch(row -> row.getFirst().contains("shipped twice"));
    for (List<String> row : rows) {
      RunbookDocument.Section section = numbered(row.getLast());
      Matcher alarm = Pattern.compile("`([^`]+)`").matcher(row.getFirst());
      String about = alarm.find() ? "`" + alarm.group(1) + "`" : row.getFirst().contains("shipped twice") ? "shipped twice"
          : row.getFirst().contains("API key") ? "key rotation" : row.getFirst();
      assertThat(section.title()).as("the section the opening table sends '%s' to", row.getFirst()).contains(about);
    }
  }

  /** The pages --serve prints say what the table says: one source, AlarmPage and LocalStandIn. */
  @Test
  void theOpeningTableSaysWhatEachPageMeansItsFirstCommandAndHowItStandsLocally() {
    assertThat(AlarmPage.ALL).extracting(AlarmPage::alarm).as("the alarms with a page")
        .containsExactlyInAnyOrderElementsOf(AlarmNames.ALL);
    assertThat(LocalStandIn.ALL).extracting(LocalStandIn::alarm).as("the alarms with a local stand-in")
        .containsExactlyInAnyOrderElementsOf(AlarmNames.ALL);
    List<List<String>> rows = tableRows(runbook.sections().getFirst());
    for (AlarmPage page : AlarmPage.ALL) {
      List<String> row = rows.stream().filter(cells -> cells.getFirst().equals("`" + page.alarm() + "`")).findFirst()
          .orElseThrow(() -> new AssertionError("no row of the opening table for " + page.alarm()));
      assertThat(row).as("the opening table's row for %s", page.alarm()).hasSize(5);
      assertThat(row.subList(1, 4)).as("what the row for %s says, against AlarmPage and LocalStandIn", page.alarm())
          .containsExactly(page.meaning(), page.firstCommand(), LocalStandIn.of(page.alarm()).onTheLocalStack());
      assertThat(SECTION_NUMBER.matcher(numbered(row.getLast()).title()).replaceFirst(""))
          .as("the section the row for %s sends to", page.alarm()).startsWith(page.section());
    }
  }

  @Test
  void theNumbersTableIsWhatTheCodeComputesForTheCommittedSettings() {
    List<String> expected = RunbookNumbers.table(repository.committedBudget(),
        repository.committedSetting(com.acme.fulfil.contract.settings.OnCallSettings.MAX_CONCURRENCY));
    List<String> actual = runbook.section("The numbers").lines().stream().filter(line -> line.startsWith("|")).toList();
    assertThat(actual).as("docs/runbook.md's numbers; the table the code gives is%n%n%s%n", String.join("\n", expected))
        .containsExactlyElementsOf(expected);
  }

  @Test
  void noSentenceTypesANumberTheTableOrACommandHolds() {
    List<String> typed = new ArrayList<>();
    for (RunbookDocument.Section section : runbook.sections()) {
      // The numbers' own table, and the timing change whose figures the test below computes.
      if (section.title().equals("The numbers") || section.title().contains("Changing a timing number")) {
        continue;
      }
      String prose = FENCED.matcher(section.text()).replaceAll("").replaceAll("`[^`]*`", "").replaceAll("\\]\\([^)]*\\)", "]");
      Matcher number = TYPED_NUMBER.matcher(prose);
      while (number.find()) {
        typed.add(section.title() + ": '" + number.group() + "'");
      }
    }
    assertThat(typed).as("numbers typed in the runbook's sentences: name the row of 'The numbers' instead").isEmpty();
  }

  @Test
  void theDlqQueryReachesBackAsFarAsTheDlqKeepsAMessage() {
    assertThat(runbook.section("The DLQ by hand").text())
        .contains(String.format(Locale.ROOT, "$(date +%%s) - %d * 86400", repository.committedBudget().dlqRetention().toDays()));
  }

  @Test
  void everyMetricTheFunctionEmitsIsInTheMetricsTableAndNoOther() {
    assertThat(repository.design().section("Metrics").firstColumnNames())
        .as("the function's metrics table in docs/design.md, against the contract's MetricNames")
        .containsExactlyInAnyOrderElementsOf(repository.metricNames());
  }

  @Test
  void everyFieldOfTheFunctionsLogLinesIsInTheLogFieldsTableAndNoOther() {
    assertThat(repository.design().section("Log fields").firstColumnNames())
        .as("the log fields table in docs/design.md, against JsonLogFormatter and every MDC key")
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

  /** Pages and ./fulfil-ops name a section by its title, which stays put when sections are added before it. */
  @Test
  void everyRunbookSectionTheCodeNamesIsTitledSoAndNoneIsNamedByNumber() {
    List<String> titles = runbook.sections().stream()
        .map(section -> SECTION_NUMBER.matcher(section.title()).replaceFirst("")).toList();
    for (String named : repository.namedRunbookSections()) {
      assertThat(titles).as("a runbook section whose title begins '%s', which the code names", named)
          .anyMatch(title -> title.startsWith(named));
    }
    assertThat(repository.runbookSectionNumbers()).as("runbook sections the code names by number").isEmpty();
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
        String.format(Locale.ROOT, "alarm at %,d s", com.acme.fulfil.contract.alarms.AlarmRules.oldestMessageAge(settled).toSeconds()));
  }

  @Test
  void serveModePrintsTheRunbooksDrillWhoseStepsAreTheProceduresOwnCommands() {
    RunbookDocument.Section practice = runbook.section(RunbookDrillTest.REHEARSALS);
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

  /** The section numbered {@code number}. */
  private RunbookDocument.Section numbered(String number) {
    List<RunbookDocument.Section> matching = runbook.sections().stream().filter(section -> {
      Matcher numbered = SECTION_NUMBER.matcher(section.title());
      return numbered.find() && numbered.group(1).equals(number.strip());
    }).toList();
    assertThat(matching).as("docs/runbook.md's section %s", number).hasSize(1);
    return matching.getFirst();
  }

  /** The cells of a section's first table, header and rule left out. */
  private static List<List<String>> tableRows(RunbookDocument.Section section) {
    List<List<String>> rows = new ArrayList<>();
    int row = 0;
    for (String line : section.lines()) {
      if (line.startsWith("|") && row++ >= 2) {
        rows.add(List.of(line.substring(1, line.lastIndexOf('|')).split("\\|")).stream().map(String::strip).toList());
      } else if (!line.startsWith("|") && row > 0) {
        break;
      }
    }
    return rows;
  }
}
