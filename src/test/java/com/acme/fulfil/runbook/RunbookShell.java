package com.acme.fulfil.runbook;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A shell session as on-call has one: each command runs in bash, in one working directory, and the
 * variables a command sets are there for the next, as if typed one after another into the same
 * terminal. Each command is its own bash process, so each has its own exit status.
 */
final class RunbookShell {
  /** Bash's own bookkeeping, and ours, which must not look like the session's variables. */
  private static final Set<String> NOT_SESSION_STATE =
      Set.of("_", "SHLVL", "PWD", "OLDPWD", "RUNBOOK_STATUS", "RUNBOOK_STATE_FILE");
  private static final long COMMAND_TIMEOUT_SECONDS = 60;

  private final Path workingDirectory;
  private final Map<String, String> variables;
  private int runs;

  RunbookShell(Path workingDirectory, Map<String, String> environment) {
    this.workingDirectory = workingDirectory;
    this.variables = new HashMap<>(environment);
  }

  /** Runs the command, and keeps what it set (bash's allexport makes every assignment visible to us). */
  Result run(String command) {
    Path state = workingDirectory.resolve(".runbook-state-" + runs);
    Result result = execute(command, variables, state);
    variables.clear();
    variables.putAll(readState(state));
    return result;
  }

  /** Runs the command with some variables changed, keeping nothing it set. */
  Result probe(String command, Map<String, String> overrides, Set<String> unset) {
    Map<String, String> environment = new HashMap<>(variables);
    environment.keySet().removeAll(unset);
    environment.putAll(overrides);
    Path state = workingDirectory.resolve(".runbook-probe-" + runs);
    Result result = execute(command, environment, state);
    try {
      Files.deleteIfExists(state);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return result;
  }

  void set(String name, String value) {
    variables.put(name, value);
  }

  Optional<String> variable(String name) {
    return Optional.ofNullable(variables.get(name));
  }

  Path workingDirectory() {
    return workingDirectory;
  }

  private Result execute(String command, Map<String, String> environment, Path stateFile) {
    runs++;
    String script = String.join("\n",
        "set -a -o pipefail",
        command,
        "RUNBOOK_STATUS=$?",
        "env -0 > \"$RUNBOOK_STATE_FILE\"",
        "exit $RUNBOOK_STATUS");
    ProcessBuilder builder = new ProcessBuilder("bash", "--noprofile", "--norc", "-c", script)
        .directory(workingDirectory.toFile());
    builder.environment().clear();
    builder.environment().putAll(environment);
    builder.environment().put("RUNBOOK_STATE_FILE", stateFile.toString());
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> drain(process.getInputStream()));
      CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> drain(process.getErrorStream()));
      if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new AssertionError("still running after " + COMMAND_TIMEOUT_SECONDS + " s: " + command);
      }
      return new Result(process.exitValue(), stdout.join(), stderr.join());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running: " + command, e);
    }
  }

  private Map<String, String> readState(Path state) {
    try {
      Map<String, String> read = new HashMap<>();
      for (String entry : Files.readString(state, StandardCharsets.UTF_8).split("\0")) {
        int equals = entry.indexOf('=');
        if (equals > 0 && !NOT_SESSION_STATE.contains(entry.substring(0, equals))) {
          read.put(entry.substring(0, equals), entry.substring(equals + 1));
        }
      }
      Files.delete(state);
      return read;
    } catch (IOException e) {
      throw new UncheckedIOException("the command ended before bash could record its variables", e);
    }
  }

  private static String drain(InputStream stream) {
    try (stream) {
      return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  record Result(int exitCode, String stdout, String stderr) {
    String output() {
      return (stdout + stderr).strip();
    }
  }
}
