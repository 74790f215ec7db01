package com.acme.fulfil.local.lambda;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * One Lambda execution environment: a JVM started the way Lambda's Java runtime starts it (the runtime
 * interface client as main class, the function loaded by it from the task root), serving one invocation
 * at a time through its own {@link RuntimeApi}. The function timeout is enforced as Lambda enforces it:
 * the process is killed, and the environment is gone; so is one whose process exits.
 */
final class ExecutionEnvironment implements AutoCloseable {
  /**
   * Lambda gives an init phase 10 s on its own vCPU; here environments share the machine's cores with
   * the whole local stack, so the limit is wider. It only decides when a hung init is given up.
   */
  static final Duration INIT_LIMIT = Duration.ofSeconds(60);
  /**
   * Environments initialise at most this many at a time, as Lambda too adds environments at a bounded
   * rate: on a laptop, a burst of JVMs starting together would each take many times longer and starve
   * the invocations already running. Only the wall-clock time of cold starts is affected; no deadline
   * counts it.
   */
  private static final Semaphore STARTS = new Semaphore(Math.max(1, Runtime.getRuntime().availableProcessors()));
  static final String MAIN_CLASS = "com.amazonaws.services.lambda.runtime.api.client.AWSLambda";

  private final FunctionConfiguration function;
  private final List<String> command;
  private final RuntimeApi api = new RuntimeApi();
  private final Process process;
  private final long startedNanos = System.nanoTime();
  private volatile boolean dead;

  private ExecutionEnvironment(FunctionConfiguration function, RuntimeHost host, Consumer<String> output,
      Map<String, String> extraEnvironment) {
    this.function = function;
    command = new ArrayList<>(host.jvmCommand(function));
    command.add(MAIN_CLASS);
    command.add(function.handler());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.clear();
    env.putAll(function.environment());
    env.putAll(extraEnvironment);
    env.putAll(reserved(function, host, api.address()));
    env.put("AWS_LAMBDA_INITIALIZATION_TYPE", host.initializationType());
    try {
      Path tmp = Files.createTempDirectory("lambda-env-tmp-");
      env.put("TMPDIR", tmp.toString());
      builder.directory(function.taskRoot().toFile());
      process = builder.start();
    } catch (IOException e) {
      api.close();
      throw new UncheckedIOException("cannot start an execution environment for " + function.name(), e);
    }
    Thread pump = new Thread(() -> copyLines(output), "lambda-env-output-" + process.pid());
    pump.setDaemon(true);
    pump.start();
  }

  /**
   * Starts an environment and waits for its init phase to end (the runtime's first request for work).
   *
   * @throws InitFailedException with the error Lambda would report when init fails or outlasts its limit
   */
  static ExecutionEnvironment start(FunctionConfiguration function, RuntimeHost host, Consumer<String> output,
      Map<String, String> extraEnvironment) {
    STARTS.acquireUninterruptibly();
    ExecutionEnvironment environment;
    InvokeResult.Failure initError;
    try {
      environment = new ExecutionEnvironment(function, host, output, extraEnvironment);
      initError = environment.awaitInit();
    } finally {
      STARTS.release();
    }
    host.initEnded(environment.command, initError == null);
    if (initError != null) {
      environment.close();
      throw new InitFailedException(initError);
    }
    return environment;
  }

  private InvokeResult.Failure awaitInit() {
    CompletableFuture<InvokeResult.Failure> exited = process.onExit().thenApply(p -> new InvokeResult.Failure(
        "Runtime.ExitError", "Runtime exited during init with error: exit status " + p.exitValue()));
    try {
      return api.initialised().applyToEither(exited, failure -> failure)
          .get(INIT_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return new InvokeResult.Failure("Sandbox.Timedout", "init did not finish within " + INIT_LIMIT.toSeconds() + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new InvokeResult.Failure("Runtime.Interrupted", "interrupted while the environment started");
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  /** How long this environment took from process start to the end of its init. */
  Duration age() {
    return Duration.ofNanos(System.nanoTime() - startedNanos);
  }

  boolean alive() {
    return !dead && process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  /**
   * Runs one invocation: the event goes to the runtime's {@code next} request with a deadline of now plus
   * the function timeout, and whichever comes first decides the result: the runtime's response or error,
   * the process exiting ({@code Runtime.ExitError}), or the timeout (the process is killed:
   * {@code Sandbox.Timedout}).
   */
  InvokeResult invoke(byte[] event) {
    String requestId = UUID.randomUUID().toString();
    Duration timeout = function.timeout();
    long deadlineEpochMs = System.currentTimeMillis() + timeout.toMillis();
    CompletableFuture<InvokeResult> result = new CompletableFuture<>();
    process.onExit().thenRun(() -> result.complete(new InvokeResult.Failure("Runtime.ExitError",
        "RequestId: " + requestId + " Error: Runtime exited with error: exit status " + process.exitValue())));
    try {
      // The runtime is waiting in next; if it is not (it died), the exit completes the result instead.
      CompletableFuture.runAsync(() -> {
        try {
          api.offer(new RuntimeApi.Pending(requestId, event, deadlineEpochMs, function.arn(), result));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      return result.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      kill();
      return new InvokeResult.Failure("Sandbox.Timedout",
          "RequestId: " + requestId + " Error: Task timed out after " + seconds(timeout) + " seconds");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill();
      return new InvokeResult.Failure("Runtime.Interrupted", "the caller stopped waiting");
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } finally {
      if (!process.isAlive()) {
        dead = true;
      }
    }
  }

  private static String seconds(Duration timeout) {
    return String.format(java.util.Locale.ROOT, "%.2f", timeout.toMillis() / 1000.0);
  }

  private void kill() {
    dead = true;
    process.destroyForcibly();
    try {
      process.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The variables Lambda sets in every environment, over the function's own. */
  private static Map<String, String> reserved(FunctionConfiguration function, RuntimeHost host, String runtimeApi) {
    Map<String, String> env = new HashMap<>();
    env.put("AWS_LAMBDA_RUNTIME_API", runtimeApi);
    env.put("_HANDLER", function.handler());
    env.put("LAMBDA_TASK_ROOT", function.taskRoot().toString());
    env.put("AWS_EXECUTION_ENV", host.executionEnvironment());
    env.put("AWS_LAMBDA_FUNCTION_NAME", function.name());
    env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
    env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(function.memoryMb()));
    env.put("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/" + function.name());
    env.put("AWS_LAMBDA_LOG_STREAM_NAME", "local/[$LATEST]" + UUID.randomUUID().toString().replace("-", ""));
    env.put("AWS_REGION", function.region());
    env.put("AWS_DEFAULT_REGION", function.region());
    env.put("TZ", ":UTC");
    env.put("LANG", "en_US.UTF-8");
    env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    return env;
  }

  private void copyLines(Consumer<String> output) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = lines.readLine()) != null; ) {
        output.accept(line);
      }
    } catch (IOException e) {
      // The process is gone; so is its output.
    }
  }

  @Override
  public void close() {
    kill();
    api.close();
  }

  /** Init failed or outlasted its limit; the error is what Lambda would return for the invocation. */
  static final class InitFailedException extends RuntimeException {
    private final InvokeResult.Failure failure;

    InitFailedException(InvokeResult.Failure failure) {
      super(failure.errorType() + ": " + failure.errorMessage());
      this.failure = failure;
    }

    InvokeResult.Failure failure() {
      return failure;
    }
  }
}
