package com.acme.fulfil.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeneratedReportTest {

  @Test
  void aWrittenReportNamesItsCommandItsVersionAndWhenItRan(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("reports/local-run.md");
    Clock clock = Clock.fixed(Instant.parse("2026-11-28T06:40:00Z"), ZoneOffset.UTC);

    GeneratedReport.LOCAL_RUN.write(file, List.of("--report", "docs/reports/local-run.md"), "```text\nbooked 194\n```", clock);

    String written = Files.readString(file);
    assertThat(GeneratedReport.headerOf(written))
        .contains(new GeneratedReport.Header("./run-local", GeneratedReport.LOCAL_RUN.version()));
    assertThat(written)
        .contains("`./run-local --report docs/reports/local-run.md` (report version " + GeneratedReport.LOCAL_RUN.version() + ")")
        .contains("2026-11-28 06:40 UTC")
        .endsWith("```text\nbooked 194\n```\n");
  }

  @Test
  void aFileWithoutTheHeaderOnItsFirstLineIsNoGeneratedReport() {
    assertThat(GeneratedReport.headerOf("# Performance\n<!-- generated-report command=\"./run-local\" version=\"1\" -->\n")).isEmpty();
    assertThat(GeneratedReport.headerOf("")).isEmpty();
  }

  @Test
  void eachCommandWritesOneKindOfReport() {
    for (GeneratedReport report : GeneratedReport.values()) {
      assertThat(GeneratedReport.byCommand(report.command())).contains(report);
    }
    assertThat(GeneratedReport.byCommand("./run-local --serve")).isEmpty();
  }
}
