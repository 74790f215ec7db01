package com.acme.fulfil.runbook;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.GeneratedReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A measured figure lives in a report its command writes (docs/reports/), never typed into prose: the
 * docs say what a command shows and link its report. So a Markdown file outside docs/reports carries no
 * time of day, no dated measurement and no row pasted from a report's table, and every report the docs
 * point to exists and was written by the version of its command that stands ({@link GeneratedReport}). Numbers inside a report are not
 * compared with anything: a re-run that moves them by noise is still the same report. Reads files only.
 */
class FiguresComeFromReportsTest {
  private static final Path REPORTS = Path.of("docs", "reports");
  /** What {@code ./tools/benchmarks/run capacity --report} writes for docs/capacity.md. */
  private static final String CAPACITY_MODEL_REPORT = "capacity-model.md";
  /** A table's line under its header: pipes, dashes, colons and spaces only. */
  private static final Pattern TABLE_SEPARATOR = Pattern.compile("\\|[\\s:|-]+\\|");
  /** A report the docs name, as a link or in code: docs/reports/NAME.md, or reports/NAME.md from docs/. */
  private static final Pattern REPORT_NAMED = Pattern.compile("(?<![\\w/])(?:docs/)?reports/([\\w.-]+\\.md)");
  private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
  private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");
  /** 17:54, 9:05 UTC, 18:33:10: a clock reading, which only a run has. */
  private static final Pattern TIME_OF_DAY = Pattern.compile("\\b\\d{1,2}:\\d{2}(?::\\d{2})?(?:\\s?UTC)?\\b");
  private static final Pattern DATE = Pattern.compile("\\b20\\d{2}-\\d{2}-\\d{2}\\b");
  /** A quantity a run measures (a duration, a size, a rate, a share), or a word that says one was measured. */
  private static final Pattern MEASURED = Pattern.compile(
      "\\b\\d[\\d,.]*\\s?(?:ms|s|min|minutes|seconds|h|hours|MB|MiB|KB|GB|bytes|%|orders/s|orders an hour)(?![\\w])"
          + "|(?i)\\b(?:measured|timed|took|comparison|benchmarked)\\b");
  /** Where Markdown files are not the project's prose: what builds write, and what npm installs. */
  private static final Set<String> NOT_PROSE = Set.of(".git", "target", "node_modules", "cdk.out");

  private final Repository repository = Repository.containingThisTest();

  @Test
  void everyReportTheDocsPointToExistsAndWasWrittenByItsCommandAsItStands() {
    List<String> wrong = new ArrayList<>();
    Set<String> named = new TreeSet<>();
    for (Path page : prosePages()) {
      Matcher report = REPORT_NAMED.matcher(read(page));
      while (report.find()) {
        named.add(report.group(1));
      }
    }
    for (String name : named) {
      Path report = repository.root().resolve(REPORTS).resolve(name);
      if (!Files.isRegularFile(report)) {
        wrong.add(REPORTS.resolve(name) + " is named in the docs but missing: run the command that writes it");
        continue;
      }
      Optional<GeneratedReport.Header> header = GeneratedReport.headerOf(read(report));
      if (header.isEmpty()) {
        wrong.add(REPORTS.resolve(name) + " has no generated-report header: a command writes it, not a person");
        continue;
      }
      Optional<GeneratedReport> command = GeneratedReport.byCommand(header.get().command());
      if (command.isEmpty()) {
        wrong.add(REPORTS.resolve(name) + " names a command that writes no report: " + header.get().command());
      } else if (command.get().version() != header.get().version()) {
        wrong.add(REPORTS.resolve(name) + " was written by version " + header.get().version() + " of "
            + header.get().command() + ", which is at version " + command.get().version() + " now: run it again");
      }
    }
    assertThat(named).as("the reports README.md and docs/ point to").isNotEmpty();
    assertThat(wrong).as("reports the docs point to").isEmpty();
  }

  @Test
  void noMarkdownOutsideTheReportsCarriesATimeOfDayOrADatedMeasurement() {
    List<String> found = new ArrayList<>();
    for (Path page : prosePages()) {
      List<String> paragraph = new ArrayList<>();
      int firstLine = 0;
      int number = 0;
      boolean fenced = false;
      for (String line : read(page).lines().toList()) {
        number++;
        if (FENCE.matcher(line).find()) {
          fenced = !fenced;
          continue;
        }
        if (fenced) {
          continue; // code and sample output: commands, message bodies, a report's format
        }
        String prose = INLINE_CODE.matcher(line).replaceAll("");
        Matcher time = TIME_OF_DAY.matcher(prose);
        while (time.find()) {
          found.add(where(page, number) + " a time of day, '" + time.group() + "'");
        }
        if (prose.isBlank()) {
          datedMeasurement(page, firstLine, paragraph).ifPresent(found::add);
          paragraph.clear();
        } else {
          if (paragraph.isEmpty()) {
            firstLine = number;
          }
          paragraph.add(prose);
        }
      }
      datedMeasurement(page, firstLine, paragraph).ifPresent(found::add);
    }
    assertThat(found)
        .as("measured figures in Markdown: state what a command shows, name the command and link the report it writes"
            + " (docs/reports/, GeneratedReport)")
        .isEmpty();
  }

  /**
   * A report's table is read in the report: a page that pastes its rows, even under a test that holds them
   * to the report, is a copy someone must paste again after every run. A row counts as pasted when it is
   * a row of a report's table, character for character; separator rows say nothing and are left out.
   */
  @Test
  void noPageOutsideTheReportsPastesARowOfAReportsTable() {
    Set<String> reported = new HashSet<>();
    for (Path report : reports()) {
      read(report).lines().map(String::strip).filter(FiguresComeFromReportsTest::isTableRow).forEach(reported::add);
    }
    List<String> pasted = new ArrayList<>();
    for (Path page : prosePages()) {
      int number = 0;
      for (String line : read(page).lines().toList()) {
        number++;
        if (reported.contains(line.strip())) {
          pasted.add(where(page, number) + " " + line.strip());
        }
      }
    }
    assertThat(reported).as("the rows of the reports' tables in %s", REPORTS).isNotEmpty();
    assertThat(pasted)
        .as("rows pasted from a report (docs/reports/): link the report's section and say how to read it instead")
        .isEmpty();
  }

  /**
   * docs/capacity.md explains the capacity model's report table by table, linking each table's heading
   * (DocsAgreeWithTheCodeTest checks that every link reaches a heading that exists): a table the model
   * gains is explained there too, not left for the reader to guess at.
   */
  @Test
  void capacityDocsLinkEveryTableOfTheCapacityModelsReport() {
    Path report = repository.root().resolve(REPORTS).resolve(CAPACITY_MODEL_REPORT);
    List<String> sections = new ArrayList<>(DocsAgreeWithTheCodeTest.anchors(report));
    sections.removeFirst(); // the title GeneratedReport heads every report with: its command
    String capacityDocs = read(repository.root().resolve("docs/capacity.md"));
    assertThat(sections).as("the sections of %s, a heading for each table", REPORTS.resolve(CAPACITY_MODEL_REPORT))
        .isNotEmpty();
    assertThat(sections.stream().filter(section -> !capacityDocs.contains(
            "(reports/" + CAPACITY_MODEL_REPORT + "#" + section + ")")).toList())
        .as("sections of %s that docs/capacity.md does not link", REPORTS.resolve(CAPACITY_MODEL_REPORT))
        .isEmpty();
  }

  private static boolean isTableRow(String line) {
    return line.startsWith("|") && !TABLE_SEPARATOR.matcher(line).matches();
  }

  private List<Path> reports() {
    try (Stream<Path> files = Files.list(repository.root().resolve(REPORTS))) {
      return files.filter(file -> file.toString().endsWith(".md")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A paragraph (or table) that dates a run and quotes what it measured. */
  private Optional<String> datedMeasurement(Path page, int firstLine, List<String> paragraph) {
    String text = String.join(" ", paragraph);
    Matcher date = DATE.matcher(text);
    Matcher measured = MEASURED.matcher(text);
    return date.find() && measured.find()
        ? Optional.of(where(page, firstLine) + " a dated measurement, '" + date.group() + "' with '" + measured.group() + "'")
        : Optional.empty();
  }

  private String where(Path page, int line) {
    return repository.root().relativize(page) + ":" + line + ":";
  }

  /** Every Markdown file of the repository but the generated reports and what builds and npm put there. */
  private List<Path> prosePages() {
    Path reports = repository.root().resolve(REPORTS);
    List<Path> pages = new ArrayList<>();
    try {
      Files.walkFileTree(repository.root(), new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
          return dir.equals(reports) || NOT_PROSE.contains(dir.getFileName().toString())
              ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
          if (file.toString().endsWith(".md")) {
            pages.add(file);
          }
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return pages.stream().sorted().toList();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
