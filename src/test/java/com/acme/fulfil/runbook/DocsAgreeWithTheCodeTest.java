package com.acme.fulfil.runbook;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.settings.OnCallSettings;
import com.acme.fulfil.contract.timing.Capacity;
import com.acme.fulfil.contract.timing.TimingBudget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * README and docs/ say what the code says: README stays short enough to read in a few minutes, every
 * relative link reaches a file and a heading that exist, the number of alarms is the number the stack
 * raises, the coupled numbers in README's table are TimingBudget's defaults, and the capacity figures in
 * docs/capacity.md are what Capacity computes. Reads files only: no stack, no synth.
 */
class DocsAgreeWithTheCodeTest {
  private static final int README_MAX_LINES = 150;
  private static final Pattern FENCE = Pattern.compile("^\\s*```");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");
  private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
  private static final List<String> NUMBER_WORDS = List.of("zero", "one", "two", "three", "four", "five", "six",
      "seven", "eight", "nine", "ten", "eleven", "twelve");
  /** "eight alarms", "the stack's eight alarms", "eight standard-resolution alarms", "8 alarms". */
  private static final Pattern ALARM_COUNT = Pattern.compile(
      "\\b(" + String.join("|", NUMBER_WORDS) + "|\\d+)\\s+(?:standard-resolution\\s+)?alarms\\b", Pattern.CASE_INSENSITIVE);

  private final Repository repository = Repository.containingThisTest();

  @Test
  void readmeIsShortEnoughToReadInAFewMinutes() {
    assertThat(lines(repository.root().resolve("README.md")))
        .as("README.md's lines: keep it to what a newcomer needs, and move the rest into docs/")
        .hasSizeLessThanOrEqualTo(README_MAX_LINES);
  }

  @Test
  void everyRelativeLinkReachesAFileAndAHeadingThatExist() {
    List<String> dead = new ArrayList<>();
    Map<Path, Set<String>> anchorsByFile = new HashMap<>();
    for (Path page : repository.documents()) {
      for (String target : links(page)) {
        if (SCHEME.matcher(target).find()) {
          continue; // https:, mailto: and the like are not ours to check offline
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Optional<String> anchor = hash < 0 ? Optional.empty() : Optional.of(target.substring(hash + 1));
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        String where = repository.root().relativize(page) + ": (" + target + ")";
        if (!resolved.startsWith(repository.root()) || !Files.exists(resolved)) {
          dead.add(where + " names a file that does not exist");
        } else if (anchor.isPresent()) {
          Set<String> anchors = anchorsByFile.computeIfAbsent(resolved, DocsAgreeWithTheCodeTest::anchors);
          if (!anchors.contains(anchor.get())) {
            dead.add(where + " names a heading " + repository.root().relativize(resolved) + " does not have");
          }
        }
      }
    }
    assertThat(dead).as("dead links in README.md and docs/").isEmpty();
  }

  @Test
  void everyNumberOfAlarmsTheDocsStateIsTheNumberTheStackRaises() {
    int raised = repository.alarmNames().size();
    String readme = read(repository.root().resolve("README.md"));
    List<Integer> readmeCounts = alarmCounts(readme);
    assertThat(readmeCounts).as("README.md says how many alarms the stack has").isNotEmpty();
    assertThat(readmeCounts).as("the number of alarms README.md states, against FulfilOrderAlarms' %s", repository.alarmNames())
        .containsOnly(raised);
    assertThat(alarmCounts(read(repository.root().resolve("docs/deploy.md"))))
        .as("the number of alarms docs/deploy.md states (what the stack creates, what it costs), against FulfilOrderAlarms")
        .isNotEmpty()
        .containsOnly(raised);
  }

  @Test
  void readmesCoupledNumbersAreTimingBudgetsDefaults() {
    TimingBudget defaults = TimingBudget.defaults();
    Map<String, String> table = coupledNumbers();
    assertThat(table.get("receives before the DLQ")).as("README: receives before the DLQ")
        .isEqualTo(String.valueOf(defaults.maxReceiveCount()));
    assertThat(table.get("retry horizon")).as("README: retry horizon")
        .isEqualTo(seconds(defaults.retryHorizon().toSeconds()));
    assertThat(table.get("longest retry life")).as("README: longest retry life")
        .isEqualTo(seconds(defaults.longestRetryLife().toSeconds()));
    assertThat(table.get("oldest-message alarm")).as("README: the oldest-message alarm's threshold, the age SQS still sees and a margin")
        .isEqualTo(seconds(com.acme.fulfil.contract.alarms.AlarmRules.oldestMessageAge(defaults).toSeconds()));
    assertThat(table.get("visibility timeout")).as("README: visibility timeout")
        .isEqualTo(seconds(defaults.visibilityTimeout().toSeconds()));
    assertThat(table.get("function timeout")).as("README: function timeout")
        .isEqualTo(seconds(defaults.functionTimeout().toSeconds()));
    int maxConcurrency = repository.committedSetting(OnCallSettings.MAX_CONCURRENCY);
    assertThat(table.get("mapping concurrency")).as("README: mapping concurrency, against infra/cdk.json")
        .isEqualTo(String.valueOf(maxConcurrency));
    Capacity capacity = defaults.capacity(maxConcurrency);
    assertThat(table.get("capacity")).as("README: capacity, against TimingBudget.capacity(%d)", maxConcurrency)
        .isEqualTo(String.format(Locale.ROOT, "%,d orders an hour typically, %,d at the worst case",
            capacity.typicalOrdersPerHour(), capacity.worstCaseOrdersPerHour()));
  }

  @Test
  void capacityDocsStateWhatCapacityComputesForABatchOfOneAndOfTen() {
    int maxConcurrency = repository.committedSetting(OnCallSettings.MAX_CONCURRENCY);
    Map<String, List<String>> rows = tableRows(repository.root().resolve("docs/capacity.md"));
    for (int batchSize : new int[] {1, 10}) {
      TimingBudget budget = TimingBudget.builder().batchSize(batchSize).build();
      Capacity capacity = budget.capacity(maxConcurrency);
      String batch = batchSize + " / " + budget.recordConcurrency();
      assertThat(rows.get(batch)).as("docs/capacity.md's row for batch size / record concurrency %s at maxConcurrency %d,"
              + " against TimingBudget.capacity", batch, maxConcurrency)
          .containsExactly(batch, capacity.typicalRound().toSeconds() + " s", count(capacity.typicalOrdersPerHour()),
              count(capacity.worstCaseOrdersPerHour()), count(capacity.backlogAlarmThreshold()));
    }
  }

  /** The runbook's backlog and capacity figures are its table of numbers, which RunbookAgreesWithTheCodeTest pins. */
  @Test
  void theOutageFiguresTheDocsStateAreTheCodes() {
    TimingBudget defaults = TimingBudget.defaults();
    assertThat(read(repository.root().resolve("docs/capacity.md"))).as("docs/capacity.md: an outage's retry life")
        .contains(String.format(Locale.ROOT, "an order retries %,d s on average before the DLQ",
            defaults.outageRetryLife().toSeconds()));
  }

  /** A Markdown page's table rows, by their first cell, each as its cells. */
  private static Map<String, List<String>> tableRows(Path page) {
    Map<String, List<String>> rows = new HashMap<>();
    for (String line : lines(page)) {
      if (line.startsWith("| ") && !line.startsWith("|---")) {
        List<String> cells = List.of(line.substring(1, line.lastIndexOf('|')).split("\\|")).stream().map(String::trim).toList();
        rows.putIfAbsent(cells.getFirst(), cells);
      }
    }
    return rows;
  }

  private static String count(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }

  /** README's table of coupled numbers: each row's name (before any backticked key) to its value. */
  private Map<String, String> coupledNumbers() {
    Map<String, String> rows = new HashMap<>();
    for (String line : lines(repository.root().resolve("README.md"))) {
      if (line.startsWith("| ") && !line.startsWith("|---")) {
        String[] cells = line.split("\\s*\\|\\s*");
        if (cells.length > 2) {
          String name = cells[1].replaceAll("\\s*\\(`.*$", "").trim();
          rows.putIfAbsent(name, cells[2].trim());
        }
      }
    }
    assertThat(rows).as("README.md's table of coupled numbers")
        .containsKeys("receives before the DLQ", "visibility timeout", "function timeout", "mapping concurrency", "capacity");
    return rows;
  }

  private static String seconds(long value) {
    return String.format(Locale.ROOT, "%,d s", value);
  }

  private static List<Integer> alarmCounts(String text) {
    List<Integer> counts = new ArrayList<>();
    Matcher count = ALARM_COUNT.matcher(text.replaceAll("\\s+", " "));
    while (count.find()) {
      String n = count.group(1).toLowerCase(Locale.ROOT);
      counts.add(n.chars().allMatch(Character::isDigit) ? Integer.parseInt(n) : NUMBER_WORDS.indexOf(n));
    }
    return counts;
  }

  /** The link targets of a Markdown page, outside fenced code blocks and inline code. */
  private static List<String> links(Path page) {
    List<String> targets = new ArrayList<>();
    boolean fenced = false;
    for (String line : lines(page)) {
      if (FENCE.matcher(line).find()) {
        fenced = !fenced;
        continue;
      }
      if (!fenced) {
        Matcher link = LINK.matcher(INLINE_CODE.matcher(line).replaceAll(""));
        while (link.find()) {
          targets.add(link.group(1));
        }
      }
    }
    return targets;
  }

  /** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as '-', repeats numbered. */
  static Set<String> anchors(Path page) {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    for (String line : lines(page)) {
      if (FENCE.matcher(line).find()) {
        fenced = !fenced;
        continue;
      }
      Matcher heading = HEADING.matcher(line);
      if (!fenced && heading.matches()) {
        String slug = heading.group(1).toLowerCase(Locale.ROOT)
            .replaceAll("[^\\p{L}\\p{N} _-]", "")
            .replace(' ', '-');
        int repeats = seen.merge(slug, 1, Integer::sum) - 1;
        anchors.add(repeats == 0 ? slug : slug + "-" + repeats);
      }
    }
    return anchors;
  }

  private static List<String> lines(Path file) {
    return read(file).lines().toList();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
