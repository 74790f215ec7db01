package com.acme.fulfil.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reports the docs point to (docs/reports/), one per command that writes one, and the header each
 * carries: the command, the version of what its report means, when and on what machine it ran. The docs
 * state what a command shows and link its report; they never retype a measured figure, so a code change
 * costs a re-run of the command, not a re-dating of prose. Bump a version when what its report means
 * changes (a row added, renamed or computed differently), not when its numbers move:
 * FiguresComeFromReportsTest then fails until the report is written again.
 */
public enum GeneratedReport {
  LOCAL_RUN("./run-local", 2),
  ARTIFACT("./tools/benchmarks/run artifact", 1),
  CAPACITY_MODEL("./tools/benchmarks/run capacity", 2),
  /** Written by a shell script, which spells the same header (bin/suite-report). */
  TEST_SUITE("bin/suite-report", 2);

  /** The option of each command above that writes its report to a file. */
  public static final String OPTION = "--report";

  private static final Pattern HEADER =
      Pattern.compile("\\A<!-- generated-report command=\"([^\"]+)\" version=\"(\\d+)\" -->\\R");
  private static final DateTimeFormatter WRITTEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT);

  private final String command;
  private final int version;

  GeneratedReport(String command, int version) {
    this.command = command;
    this.version = version;
  }

  public String command() {
    return command;
  }

  public int version() {
    return version;
  }

  /** The command and version a report's first line names, if it has that header. */
  public record Header(String command, int version) {}

  public static Optional<Header> headerOf(String markdown) {
    Matcher m = HEADER.matcher(markdown);
    return m.find() ? Optional.of(new Header(m.group(1), Integer.parseInt(m.group(2)))) : Optional.empty();
  }

  public static Optional<GeneratedReport> byCommand(String command) {
    return List.of(values()).stream().filter(r -> r.command.equals(command)).findFirst();
  }

  /**
   * Writes {@code body} (Markdown) under the header. {@code arguments} are the command's own, as typed;
   * the machine and its load go in because a loaded machine's timings differ from a quiet one's.
   */
  public void write(Path file, List<String> arguments, String body, Clock clock) throws IOException {
    String typed = command + (arguments.isEmpty() ? "" : " " + String.join(" ", arguments));
    String text = "<!-- generated-report command=\"" + command + "\" version=\"" + version + "\" -->\n"
        + "# `" + typed + "`\n\n"
        + "Written by `" + typed + "` (report version " + version + ") on "
        + WRITTEN.format(clock.instant().atZone(ZoneOffset.UTC)) + ", on " + machine() + ".\n"
        + "Generated: do not edit by hand; run the command again to rewrite it.\n\n"
        + body + (body.endsWith("\n") ? "" : "\n");
    if (file.toAbsolutePath().getParent() != null) {
      Files.createDirectories(file.toAbsolutePath().getParent());
    }
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  private static String machine() {
    String cpus = Runtime.getRuntime().availableProcessors() + " CPUs (" + System.getProperty("os.arch") + "), "
        + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
    try {
      String[] load = Files.readString(Path.of("/proc/loadavg")).strip().split(" ");
      return cpus + ", load average " + load[0] + " " + load[1] + " " + load[2] + " when the report was written";
    } catch (IOException | RuntimeException e) {
      return cpus + ", load average unknown";
    }
  }
}
