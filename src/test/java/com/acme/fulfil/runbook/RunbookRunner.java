package com.acme.fulfil.runbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.scenario.RunbookEnvironment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * Types docs/runbook.md's commands into one shell, as on-call would, against a local stack: the real
 * AWS CLI, with the runbook's variables set to the local stack's values. A command that talks to a
 * service only AWS has goes to an address where nothing listens: the CLI must get as far as
 * connecting, which it does only after accepting every option and parameter, so a typo still fails.
 * Where the runbook has the reader pick a value ({@code NAME='<...>'}), the test's pick is used.
 */
final class RunbookRunner {
  /** Services the local stack has no counterpart for, and why. */
  private static final Map<String, String> AWS_ONLY_SERVICES = Map.of(
      "cloudformation", "the stack's outputs: the test stands up the same resources under the same names",
      "cloudwatch", "metrics and alarms exist only in AWS",
      "logs", "CloudWatch Logs Insights; locally the function's lines are in the --serve terminal",
      "lambda", "the local function and its event source mapping run in a JVM, not behind the Lambda API",
      "sns", "the alarm topic exists only in AWS");
  /** Operations of a local service that cannot run here, and why. */
  private static final Map<String, String> AWS_ONLY_OPERATIONS = Map.of(
      "sqs cancel-message-move-task", "only a task still running can be cancelled, and whether the local one still is depends on timing");
  /** Programs the runbook runs that the tests do not, and why. */
  private static final Map<String, String> NOT_RUN = Map.of(
      "./run-local", "starts the local stack, which the test has started itself",
      "./mvnw", "builds the project, which the build running the test has done",
      "npx", "the CDK CLI: synth and diff are covered by infra's tests, deploy needs an AWS account",
      "gh", "the GitHub CLI: starts the deploy workflow, which runs on GitHub with the deploy role");
  private static final Set<String> LOCAL_ENDPOINTS = Set.of(
      AwsConnection.ENDPOINT_SQS, AwsConnection.ENDPOINT_DYNAMODB, AwsConnection.ENDPOINT_SECRETS_MANAGER);

  private static final Pattern AWS_CALL = Pattern.compile("(?:^|[\\s($|;&])aws\\s+([a-z0-9-]+)\\s+([a-z0-9-]+)");
  private static final Pattern READER_CHOICE = Pattern.compile("^([A-Z_][A-Z0-9_]*)='<[^'>]*>'$");
  private static final Pattern ASSIGNMENT = Pattern.compile("^([A-Z_][A-Z0-9_]*)=");
  private static final String CONNECT_REFUSED = "Could not connect to the endpoint URL";

  private final RunbookShell shell;
  private final Map<String, String> readerChoices;
  private final List<String> report = new ArrayList<>();
  private final Map<String, Integer> tally = new LinkedHashMap<>();
  /** How long the command last run took, for the report: where the runbook's test spends its time. */
  private long lastTook;

  /** @param readerChoices the values a reader would pick, read when the runbook asks for one */
  RunbookRunner(Path workingDirectory, RunbookEnvironment stack, Map<String, String> readerChoices) {
    this.readerChoices = readerChoices;
    Map<String, String> environment = new HashMap<>(stack.variables());
    environment.put("PATH", System.getenv("PATH"));
    environment.put("HOME", System.getProperty("user.home"));
    environment.put("LANG", "C.UTF-8");
    Optional.ofNullable(System.getenv("PYENV_ROOT")).ifPresent(root -> environment.put("PYENV_ROOT", root));
    // Nothing of the developer's AWS setup, and no way to reach AWS.
    environment.put("AWS_CONFIG_FILE", workingDirectory.resolve("no-aws-config").toString());
    environment.put("AWS_SHARED_CREDENTIALS_FILE", workingDirectory.resolve("no-aws-credentials").toString());
    environment.put("AWS_EC2_METADATA_DISABLED", "true");
    environment.put("AWS_PAGER", "");
    environment.put("AWS_ENDPOINT_URL", "http://127.0.0.1:" + closedLoopbackPort());
    this.shell = new RunbookShell(workingDirectory, environment);
    // The runbook runs ./fulfil-ops from the repository's root; here the shell works in a scratch directory.
    try {
      Files.createSymbolicLink(workingDirectory.resolve("fulfil-ops"),
          Repository.containingThisTest().root().resolve("fulfil-ops"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Skips the calling test, saying so on its output as well as in the report, where this machine has
   * no AWS CLI: the runbook's commands cannot run without one.
   */
  static void assumeAwsCli(String test) {
    boolean present;
    try {
      present = new ProcessBuilder("bash", "-c", "command -v aws").start().onExit().join().exitValue() == 0;
    } catch (IOException e) {
      present = false;
    }
    if (!present) {
      System.out.println(test + " skipped: no AWS CLI (aws) on the PATH, so docs/runbook.md's commands were not run.");
    }
    Assumptions.assumeTrue(present, "no AWS CLI (aws) on the PATH: docs/runbook.md's commands were not run");
  }

  void heading(String title) {
    report.add("docs/runbook.md, " + title);
  }

  /** Runs one command of the runbook; what it printed, when it ran against the local stack. */
  Optional<RunbookShell.Result> run(String command) {
    Matcher readerChoice = READER_CHOICE.matcher(command);
    if (readerChoice.matches()) {
      String name = readerChoice.group(1);
      String value = readerChoices.get(name);
      if (value == null) {
        fail("the runbook asks the reader for " + name + " (" + command + "), and the test has no value for it");
      }
      shell.set(name, value);
      record("reader", name + "=" + value);
      return Optional.empty();
    }
    Optional<String> notRun = NOT_RUN.entrySet().stream()
        .filter(program -> Pattern.compile("(^|[\\s(;&|])" + Pattern.quote(program.getKey()) + "(\\s|$)").matcher(command).find())
        .map(Map.Entry::getValue)
        .findFirst();
    if (notRun.isPresent()) {
      record("not run", command + "  (" + notRun.get() + ")");
      return Optional.empty();
    }
    List<String> awsOnly = awsOnlyReasons(command);
    if (awsOnly.isEmpty()) {
      long started = System.nanoTime();
      RunbookShell.Result result = shell.run(command);
      lastTook = System.nanoTime() - started;
      assertThat(result.exitCode()).as("exit status of%n  %s%nwhich printed%n%s", command, result.output()).isZero();
      record("ran", command);
      return Optional.of(result);
    }
    assertThat(AWS_CALL.matcher(command).results().count())
        .as("a command that needs AWS may not also call the local stack: %s", command)
        .isEqualTo(awsOnly.size());
    long started = System.nanoTime();
    RunbookShell.Result result = shell.probe(command, Map.of("AWS_MAX_ATTEMPTS", "1", "AWS_RETRY_MODE", "standard"),
        LOCAL_ENDPOINTS);
    lastTook = System.nanoTime() - started;
    List<String> complaints = result.stderr().lines().filter(line -> !line.isBlank())
        .filter(line -> !line.startsWith(CONNECT_REFUSED)).toList();
    assertThat(result.stderr()).as("the AWS CLI should accept%n  %s%nand try to connect, but printed%n%s", command,
        result.output()).contains(CONNECT_REFUSED);
    assertThat(complaints).as("the AWS CLI's complaints about%n  %s", command).isEmpty();
    Matcher assignment = ASSIGNMENT.matcher(command);
    if (assignment.find() && shell.variable(assignment.group(1)).isEmpty()) {
      // What AWS would answer; the commands after it only need some value to be well-formed.
      shell.set(assignment.group(1), "runbook-test-" + assignment.group(1).toLowerCase(Locale.ROOT));
    }
    record("AWS only", command + "  (" + String.join("; ", awsOnly) + ")");
    return Optional.empty();
  }

  Optional<String> variable(String name) {
    return shell.variable(name);
  }

  /** What was run, checked, given and left out, a line per command, and the count of each. */
  String report() {
    return String.join(System.lineSeparator(), report) + System.lineSeparator() + "docs/runbook.md: "
        + tally.getOrDefault("ran", 0) + " commands ran against the local stack, "
        + tally.getOrDefault("AWS only", 0) + " AWS-only commands accepted by the AWS CLI, "
        + tally.getOrDefault("reader", 0) + " values a reader picks, given by the test, "
        + tally.getOrDefault("not run", 0) + " commands not run.";
  }

  /** Why each of the command's AWS calls can only run in AWS; empty when all of them run locally. */
  private static List<String> awsOnlyReasons(String command) {
    List<String> reasons = new ArrayList<>();
    Matcher call = AWS_CALL.matcher(command);
    while (call.find()) {
      String service = call.group(1);
      String operation = service + " " + call.group(2);
      Optional.ofNullable(AWS_ONLY_SERVICES.get(service))
          .or(() -> Optional.ofNullable(AWS_ONLY_OPERATIONS.get(operation)))
          .ifPresent(reason -> reasons.add(operation + ": " + reason));
    }
    return reasons;
  }

  private void record(String outcome, String what) {
    tally.merge(outcome, 1, Integer::sum);
    String shown = what.length() > 150 ? what.substring(0, 147) + "..." : what;
    report.add(String.format("  %-8s %5.1f s  %s", outcome, lastTook / 1e9, shown));
    lastTook = 0;
  }

  /**
   * A loopback port nothing listens on, and nothing can: the AWS CLI's calls to services that exist only in
   * AWS are refused there. A port found free and let go could be taken by another process before the CLI
   * calls it (a loaded machine did so); this one stays bound, without listening and without SO_REUSEADDR,
   * for the test JVM's life, so a connection to it is refused and no other socket can bind it.
   */
  private static final Socket CLOSED_PORT = reserveClosedPort();

  private static Socket reserveClosedPort() {
    try {
      Socket socket = new Socket();
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      return socket;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int closedLoopbackPort() {
    return CLOSED_PORT.getLocalPort();
  }
}
