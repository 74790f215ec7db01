package com.acme.fulfil.runbook;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the runbook must agree with, read from the repository's sources: the names the function
 * writes into its log lines and metrics, and the names the stack gives its outputs and alarms. Read
 * from source rather than from classes because the system tests load the function only as its
 * deployable zip, and the CDK app is not on their classpath at all.
 */
final class Repository {
  private static final Pattern STRING_CONSTANT = Pattern.compile("static final String (\\w+) = \"([^\"]*)\";");
  private static final Pattern LOG_CONTEXT_PUT = Pattern.compile("MDC\\.put(?:Closeable)?\\(\\s*(?:\"([^\"]+)\"|([\\w.]+))\\s*,");
  private static final String LOG_FORMATTER = "function/src/main/java/com/acme/fulfil/observability/JsonLogFormatter.java";
  /** The formatter's calls that shape a line: a string field, and the start and end of a nested object. */
  private static final Pattern FORMATTER_WRITES =
      Pattern.compile("(writeStringField|writeObjectFieldStart|writeEndObject)\\((?:\"(\\w+)\")?");

  private final Path root;

  private Repository(Path root) {
    this.root = root;
  }

  /** The checkout this test runs in: the first directory upwards that holds docs/runbook.md. */
  static Repository containingThisTest() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("docs/runbook.md")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
        return new Repository(dir);
      }
    }
    throw new IllegalStateException("no docs/runbook.md above " + Path.of("").toAbsolutePath());
  }

  Path root() {
    return root;
  }

  RunbookDocument runbook() {
    return RunbookDocument.read(root.resolve("docs/runbook.md"));
  }

  /** Every metric the function emits: the contract's MetricNames, but for its namespace and service. */
  Set<String> metricNames() {
    Set<String> names = new java.util.TreeSet<>();
    for (java.lang.reflect.Field field : com.acme.fulfil.contract.records.MetricNames.class.getFields()) {
      if (!field.getName().equals("NAMESPACE") && !field.getName().equals("SERVICE")) {
        try {
          names.add((String) field.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return names;
  }

  /**
   * The fields of every function log line: those JsonLogFormatter writes itself (an object's fields
   * as {@code object.field}), and every key the code puts into the logging context, which the
   * formatter writes too.
   */
  Set<String> logFields() {
    Set<String> fields = new LinkedHashSet<>();
    Deque<String> objects = new ArrayDeque<>();
    Matcher written = FORMATTER_WRITES.matcher(read(LOG_FORMATTER));
    while (written.find()) {
      switch (written.group(1)) {
        case "writeObjectFieldStart" -> objects.push(written.group(2) + ".");
        case "writeEndObject" -> objects.poll();
        default -> {
          if (written.group(2) != null) { // a named field; the context's keys come from the MDC puts below
            fields.add(objects.isEmpty() ? written.group(2) : objects.peek() + written.group(2));
          }
        }
      }
    }
    for (Path source : javaSources("function/src/main/java")) {
      String code = read(root.relativize(source).toString());
      Matcher put = LOG_CONTEXT_PUT.matcher(code);
      while (put.find()) {
        fields.add(put.group(1) != null ? put.group(1) : constantValue(code, put.group(2), source));
      }
    }
    return fields;
  }

  /** The CloudFormation outputs FulfilOrderStack declares. */
  Set<String> stackOutputs() {
    return matches("infra/src/main/java/com/acme/fulfil/infra/FulfilOrderStack.java", "output\\(\"(\\w+)\"");
  }

  /** The alarms FulfilOrderAlarms raises, by the names the contract's AlarmNames gives them. */
  Set<String> alarmNames() {
    Set<String> raised = matches("infra/src/main/java/com/acme/fulfil/infra/FulfilOrderAlarms.java", "raise\\(AlarmNames\\.(\\w+),");
    Set<String> names = new java.util.TreeSet<>();
    for (String constant : raised) {
      names.addAll(matches("contract/src/main/java/com/acme/fulfil/contract/alarms/AlarmNames.java",
          "public static final String " + constant + " = \"([^\"]+)\";"));
    }
    return names;
  }

  /** The runbook sections the stack's pages and ./fulfil-ops send on-call to, by how their titles begin. */
  Set<String> namedRunbookSections() {
    return matches("contract/src/main/java/com/acme/fulfil/contract/oncall/RunbookSections.java",
        "static final String \\w+ = \"([^\"]+)\";");
  }

  /** Each place in the product's and the local run's main sources that names a runbook section by its number. */
  List<String> runbookSectionNumbers() {
    List<String> found = new ArrayList<>();
    for (String module : List.of("contract", "partner-client", "function", "infra", "ops", "tools/local")) {
      for (Path source : javaSources(module + "/src/main/java")) {
        Matcher number = Pattern.compile("(?i)runbook(\\.md)?,? sections? \\d+").matcher(read(root.relativize(source).toString()));
        while (number.find()) {
          found.add(source.getFileName() + ": " + number.group());
        }
      }
    }
    return found;
  }

  /** A whole-number setting as infra/cdk.json commits it, the value synth and the deploy read. */
  int committedSetting(String key) {
    return Integer.parseInt(matches("infra/cdk.json", "\"" + Pattern.quote(key) + "\"\\s*:\\s*(\\d+)").iterator().next());
  }

  /**
   * The timing budget of the committed settings: every whole-number context value of infra/cdk.json that
   * TimingBudget reads, the defaults for the rest, as synth builds it.
   */
  com.acme.fulfil.contract.timing.TimingBudget committedBudget() {
    String cdkJson = read("infra/cdk.json");
    return com.acme.fulfil.contract.timing.TimingBudget.fromSettings(key -> {
      Matcher value = Pattern.compile("\"" + Pattern.quote(key) + "\"\\s*:\\s*(\\d+)").matcher(cdkJson);
      return value.find() ? value.group(1) : null;
    });
  }

  /** docs/design.md, read as the runbook is: the metrics and log fields live there. */
  RunbookDocument design() {
    return RunbookDocument.read(root.resolve("docs/design.md"));
  }

  /** README.md and every page under docs/, by their path relative to the repository. */
  List<Path> documents() {
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
      pages.addAll(docs.filter(f -> f.toString().endsWith(".md")).sorted().toList());
      return pages;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A constant of {@code source}'s own, or {@code Class.NAME} of the contract, which the function shares with on-call's tools. */
  private String constantValue(String code, String name, Path source) {
    if (name.contains(".")) {
      String[] qualified = name.split("\\.");
      Path contract = javaSources("contract/src/main/java").stream()
          .filter(file -> file.getFileName().toString().equals(qualified[0] + ".java")).findFirst().orElseThrow();
      return constantValue(read(root.relativize(contract).toString()), qualified[1], source);
    }
    Matcher constant = STRING_CONSTANT.matcher(code);
    while (constant.find()) {
      if (constant.group(1).equals(name)) {
        return constant.group(2);
      }
    }
    throw new IllegalStateException(source + " puts the log key " + name + " but declares no such string constant");
  }

  private Set<String> matches(String file, String regex) {
    Set<String> found = new LinkedHashSet<>();
    Matcher matcher = Pattern.compile(regex).matcher(read(file));
    while (matcher.find()) {
      found.add(matcher.group(1));
    }
    if (found.isEmpty()) {
      throw new IllegalStateException("found nothing matching " + regex + " in " + file + ": has the code moved?");
    }
    return found;
  }

  private List<Path> javaSources(String directory) {
    try (Stream<Path> files = Files.walk(root.resolve(directory))) {
      return new ArrayList<>(files.filter(f -> f.toString().endsWith(".java")).toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String read(String file) {
    try {
      return Files.readString(root.resolve(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
