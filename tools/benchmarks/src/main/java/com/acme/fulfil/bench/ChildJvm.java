package com.acme.fulfil.bench;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A fresh JVM that runs only the artifact and the driver, with the function's environment and the
 * JVM options a Lambda function sets in {@code JAVA_TOOL_OPTIONS}; optionally held to a share of one
 * CPU, as Lambda gives a function CPU in proportion to its memory.
 */
final class ChildJvm {
  /** The child's standard output in its work directory: the function's JSON lines and EMF. */
  static final String STDOUT = "function-stdout.log";
  private static final long TIMEOUT_SECONDS = 120;

  private final Path java;
  private final TaskRoot task;
  private final Path driverClasses;
  private final Map<String, String> environment;
  private final List<String> sandboxFlags;
  private final Path workDirectory;
  private final Optional<CpuLimit> cpu;

  /**
   * @param sandboxFlags JVM options that stand for the sandbox rather than the function's settings
   *     (the memory the JVM may assume), on the command line where Lambda's own launcher puts its options
   */
  ChildJvm(TaskRoot task, Path driverClasses, Map<String, String> environment, List<String> sandboxFlags,
      Path workDirectory, Optional<CpuLimit> cpu) {
    this.java = Path.of(System.getProperty("java.home"), "bin", "java");
    this.task = task;
    this.driverClasses = driverClasses;
    this.environment = Map.copyOf(environment);
    this.sandboxFlags = List.copyOf(sandboxFlags);
    this.workDirectory = workDirectory;
    this.cpu = cpu;
  }

  /** The same sandbox running another layout of the same artifact. */
  ChildJvm withTask(TaskRoot other) {
    return new ChildJvm(other, driverClasses, environment, sandboxFlags, workDirectory, cpu);
  }

  Path workDirectory() {
    return workDirectory;
  }

  /** What one child reported, with the moment the parent launched it (epoch microseconds). */
  record Result(long launchedMicros, Map<String, String> values) {
    long micros(String key) {
      return Long.parseLong(values.get(key));
    }
  }

  Result run(String javaToolOptions, List<String> driverArguments) {
    try {
      Path resultFile = Files.createTempFile(workDirectory, "result-", ".txt");
      List<String> command = new ArrayList<>();
      command.add(java.toString());
      command.addAll(sandboxFlags);
      // The CRaC implementation org.crac finds: Lambda's runtime with SnapStart, the driver's stand-in here.
      command.add("-Dorg.crac.Core.Compat=" + DriverClasses.CRAC_PACKAGE);
      command.add("-cp");
      command.add(classpath());
      command.add(DriverClasses.MAIN);
      command.add(driverArguments.getFirst());
      command.add(resultFile.toString());
      command.addAll(driverArguments.subList(1, driverArguments.size()));
      ProcessBuilder builder = new ProcessBuilder(cpu.map(limit -> limit.wrap(command)).orElse(command));
      builder.environment().clear();
      builder.environment().putAll(environment);
      builder.environment().put("PATH", "/usr/bin:/bin");
      if (!javaToolOptions.isBlank()) {
        builder.environment().put(FunctionEnvironment.JAVA_TOOL_OPTIONS, javaToolOptions);
      }
      builder.redirectOutput(workDirectory.resolve(STDOUT).toFile());
      builder.redirectError(workDirectory.resolve("function-stderr.log").toFile());
      long launched = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
      Process process = builder.start();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("the child JVM did not finish in " + TIMEOUT_SECONDS + " s");
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException("the child JVM exited with " + process.exitValue() + ": see "
            + workDirectory.resolve("function-stderr.log"));
      }
      Map<String, String> values = new HashMap<>();
      for (String line : Files.readAllLines(resultFile)) {
        int eq = line.indexOf('=');
        values.put(line.substring(0, eq), line.substring(eq + 1));
      }
      Files.delete(resultFile);
      return new Result(launched, values);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private String classpath() {
    List<Path> entries = new ArrayList<>(task.classpath());
    entries.add(driverClasses);
    return entries.stream().map(Path::toString).collect(Collectors.joining(":"));
  }
}
