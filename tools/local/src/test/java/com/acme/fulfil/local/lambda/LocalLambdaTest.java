package com.acme.fulfil.local.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The local runtime runs a function as Lambda does: each environment a JVM under the runtime interface
 * client, fed through the Runtime API. The fixture function's task root is this module's test classes.
 * Its tests run one at a time: each starts runtime JVMs and times their init and timeouts, which other
 * tests' JVMs starting beside them would only blur.
 */
@Execution(ExecutionMode.SAME_THREAD)
class LocalLambdaTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String HANDLER = "com.acme.fulfil.local.lambda.fixture.FixtureHandler::handleRequest";

  @TempDir
  Path workDir;
  private LocalLambda lambda;

  @AfterEach
  void close() {
    if (lambda != null) {
      lambda.close();
    }
  }

  private LocalLambda function(Duration timeout, Map<String, String> environment) {
    return function(timeout, environment, RuntimeHost.onDemand(workDir));
  }

  private LocalLambda function(Duration timeout, Map<String, String> environment, RuntimeHost host) {
    FunctionConfiguration configuration = new FunctionConfiguration(taskRoot(), HANDLER, "fixture", "eu-west-2", 256,
        timeout, environment);
    lambda = new LocalLambda(configuration, host, System.out::println, Map.of());
    return lambda;
  }

  /**
   * AWS: java21 stops the JIT at C1 in every environment; java25 keeps the JVM's defaults (C1 then C2)
   * in an environment initialised for SnapStart, and still stops at C1 on demand.
   */
  @Test
  void environmentsStartWithTheJitTheirManagedRuntimeDocuments() throws IOException {
    record Case(RuntimeHost host, String executionEnv, String tieredStopAtLevel) {}
    for (Case expected : new Case[] {
        new Case(RuntimeHost.snapStart(workDir), "AWS_Lambda_java25", "4"),
        new Case(RuntimeHost.onDemand(workDir), "AWS_Lambda_java25", "1"),
        new Case(RuntimeHost.snapStart(workDir, JavaRuntime.JAVA_21), "AWS_Lambda_java21", "1")}) {
      JsonNode seen = answer(function(Duration.ofSeconds(20), Map.of(), expected.host()).invoke(event("{\"action\":\"echo\"}")));
      lambda.close();
      assertThat(seen.get("executionEnv").asText()).isEqualTo(expected.executionEnv());
      assertThat(seen.get("tieredStopAtLevel").asText()).as(expected.executionEnv()).isEqualTo(expected.tieredStopAtLevel());
    }
  }

  /**
   * AWS: Lambda's Java runtime maps a class-data archive of the JDK and the runtime client into every
   * environment's JVM. Here the first environment of this JVM lists what it loads, and environments
   * started once the archive is made map it.
   */
  @Test
  void environmentsStartedOnceTheRuntimesArchiveIsMadeMapIt() throws Exception {
    RuntimeHost host = RuntimeHost.onDemand(workDir);
    answer(function(Duration.ofSeconds(20), Map.of(), host).invoke(event("{\"action\":\"echo\"}")));
    lambda.close();
    Path archive = host.archive().made().get(60, TimeUnit.SECONDS);
    List<String> output = new CopyOnWriteArrayList<>();
    lambda = new LocalLambda(new FunctionConfiguration(taskRoot(), HANDLER, "fixture", "eu-west-2", 256,
        Duration.ofSeconds(20), Map.of()), host, output::add, Map.of());

    JsonNode seen = answer(lambda.invoke(event("{\"action\":\"echo\"}")));

    assertThat(seen.get("sharedArchiveFile").asText()).isEqualTo(archive.toString());
    assertThat(seen.get("vmInfo").asText()).as("java.vm.info of a JVM that mapped it").contains("sharing");
    assertThat(output).as("the environment's output").noneMatch(line -> line.contains("[cds]"));
  }

  @Test
  void warmEnvironmentServesTheNextInvocationWithLambdasContext() throws IOException {
    LocalLambda function = function(Duration.ofSeconds(20), Map.of());

    JsonNode first = answer(function.invoke(event("{\"action\":\"echo\"}")));
    JsonNode second = answer(function.invoke(event("{\"action\":\"echo\"}")));

    assertThat(second.get("pid").asLong()).as("the same JVM, warm").isEqualTo(first.get("pid").asLong());
    assertThat(function.coldStarts()).isEqualTo(1);
    assertThat(second.get("requestId").asText()).isNotEqualTo(first.get("requestId").asText());
    assertThat(first.get("functionArn").asText()).isEqualTo("arn:aws:lambda:eu-west-2:000000000000:function:fixture");
    assertThat(first.get("functionName").asText()).isEqualTo("fixture");
    assertThat(first.get("memoryMb").asInt()).isEqualTo(256);
    assertThat(first.get("remainingMs").asLong()).isBetween(15_000L, 20_000L);
  }

  @Test
  void invocationsAtOnceRunInEnvironmentsOfTheirOwn() throws Exception {
    LocalLambda function = function(Duration.ofSeconds(20), Map.of());
    byte[] sleep = event("{\"action\":\"sleep\",\"millis\":1500}");

    CompletableFuture<InvokeResult> first = CompletableFuture.supplyAsync(() -> function.invoke(sleep));
    CompletableFuture<InvokeResult> second = CompletableFuture.supplyAsync(() -> function.invoke(sleep));

    assertThat(answer(first.get()).get("pid").asLong()).isNotEqualTo(answer(second.get()).get("pid").asLong());
    assertThat(function.coldStarts()).isEqualTo(2);
  }

  @Test
  void timeoutKillsTheEnvironmentAndTheNextInvocationStartsCold() throws IOException {
    LocalLambda function = function(Duration.ofSeconds(3), Map.of());
    long firstPid = answer(function.invoke(event("{\"action\":\"echo\"}"))).get("pid").asLong();

    InvokeResult timedOut = function.invoke(event("{\"action\":\"sleep\",\"millis\":60000}"));

    assertThat(timedOut).isInstanceOfSatisfying(InvokeResult.Failure.class, failure -> {
      assertThat(failure.errorType()).isEqualTo("Sandbox.Timedout");
      assertThat(failure.errorMessage()).contains("Task timed out after 3.00 seconds");
    });
    assertThat(ProcessHandle.of(firstPid).map(ProcessHandle::isAlive)).as("the killed JVM").isNotEqualTo(Optional.of(true));
    long nextPid = answer(function.invoke(event("{\"action\":\"echo\"}"))).get("pid").asLong();
    assertThat(nextPid).isNotEqualTo(firstPid);
    assertThat(function.coldStarts()).isEqualTo(2);
  }

  @Test
  void processThatExitsIsAnExitErrorAndItsEnvironmentIsReplaced() throws IOException {
    LocalLambda function = function(Duration.ofSeconds(20), Map.of());

    InvokeResult crashed = function.invoke(event("{\"action\":\"exit\"}"));

    assertThat(crashed).isInstanceOfSatisfying(InvokeResult.Failure.class, failure -> {
      assertThat(failure.errorType()).isEqualTo("Runtime.ExitError");
      assertThat(failure.errorMessage()).contains("exit status 3");
    });
    assertThat(answer(function.invoke(event("{\"action\":\"echo\"}"))).get("pid").asLong()).isPositive();
    assertThat(function.coldStarts()).isEqualTo(2);
  }

  @Test
  void handlerThatThrowsIsAFunctionErrorAndItsEnvironmentStaysWarm() throws IOException {
    LocalLambda function = function(Duration.ofSeconds(20), Map.of());

    InvokeResult refused = function.invoke(event("{\"action\":\"throw\"}"));

    assertThat(refused).isInstanceOfSatisfying(InvokeResult.Failure.class, failure -> {
      assertThat(failure.errorType()).isEqualTo("java.lang.IllegalArgumentException");
      assertThat(failure.errorMessage()).isEqualTo("refused on purpose");
    });
    answer(function.invoke(event("{\"action\":\"echo\"}")));
    assertThat(function.coldStarts()).isEqualTo(1);
  }

  @Test
  void initFailureIsReportedAsTheRuntimeReportsIt() {
    LocalLambda function = function(Duration.ofSeconds(20), Map.of("FIXTURE_FAIL_INIT", "true"));

    InvokeResult failed = function.invoke(event("{\"action\":\"echo\"}"));

    assertThat(failed).isInstanceOfSatisfying(InvokeResult.Failure.class, failure -> {
      assertThat(failure.errorType()).isEqualTo("java.lang.ExceptionInInitializerError");
      assertThat(failure.errorMessage()).isEqualTo("Error loading class " + HANDLER.substring(0, HANDLER.indexOf(':')));
    });
    assertThat(function.invoke(event("{\"action\":\"echo\"}"))).as("the next invocation tries init again")
        .isInstanceOf(InvokeResult.Failure.class);
    assertThat(function.coldStarts()).isEqualTo(2);
  }

  private static byte[] event(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }

  private static JsonNode answer(InvokeResult result) throws IOException {
    assertThat(result).isInstanceOf(InvokeResult.Response.class);
    return JSON.readTree(((InvokeResult.Response) result).payload());
  }

  private static Path taskRoot() {
    try {
      Path classes = Path.of(LocalLambdaTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      assertThat(Files.isDirectory(classes.resolve("com/acme/fulfil/local/lambda/fixture"))).isTrue();
      return classes;
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
