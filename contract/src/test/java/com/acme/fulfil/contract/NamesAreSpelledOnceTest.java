package com.acme.fulfil.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.timing.TimingBudget;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every name the contract defines is spelled once: a string literal in any module's main sources that equals one of
 * the contract's string constants must be that constant, unless it names something else that happens to be spelled
 * the same ({@link #OTHER_MEANINGS}, each with what it names). Text blocks are sample data and are not read.
 */
class NamesAreSpelledOnceTest {
  /** The same text naming something other than the contract's name, where it does. */
  record OtherMeaning(String text, String where, String names) {}

  static final List<OtherMeaning> OTHER_MEANINGS = List.of(
      new OtherMeaning("order_id", "partner-client/", "the partner API's field and query parameter (docs/partner-api.md)"),
      new OtherMeaning("order_id", "tools/simulators/", "the simulated partner's side of the partner API"),
      new OtherMeaning("fulfil-order", "tools/benchmarks/", "the benchmarked function's name and its artifact's"),
      new OtherMeaning("FulfilOrder", "infra/src/main/java/com/acme/fulfil/infra/FulfilOrderStack.java",
          "the function's construct id"),
      new OtherMeaning("failed", "infra/src/main/java/com/acme/fulfil/infra/FulfilOrderAlarms.java",
          "a metric math expression's id"),
      new OtherMeaning("status", "ops/src/main/java/com/acme/fulfil/ops/Redrive.java", "--json's key for SQS's move task"),
      new OtherMeaning("COMPLETED", "ops/src/main/java/com/acme/fulfil/ops/Redrive.java", "SQS's move task status"),
      new OtherMeaning("status", "tools/benchmarks/src/main/java/com/acme/fulfil/bench/RuntimeBenchmark.java",
          "the /proc file"),
      new OtherMeaning("partnerBaseUrl", "tools/local/src/main/java/com/acme/fulfil/local/scenario/RunbookEnvironment.java",
          "the record component that requireNonNull names"),
      // fulfil-ops --json is on-call's own output (docs/runbook.md): its keys say the same as the record's, the
      // log's and the label's fields, and stay as they are if one of those is renamed.
      new OtherMeaning("order_id", "ops/", "a --json key"),
      new OtherMeaning("message_id", "ops/", "a --json key"),
      new OtherMeaning("source_message_id", "ops/", "a --json key"),
      new OtherMeaning("failure_class", "ops/", "a --json key"),
      new OtherMeaning("trace_id", "ops/src/main/java/com/acme/fulfil/ops/DlqSurvey.java", "a --json key"),
      new OtherMeaning("failure_at", "ops/", "a --json key"),
      new OtherMeaning("first_sent_at", "ops/", "a --json key"),
      new OtherMeaning("next_try_at", "ops/src/main/java/com/acme/fulfil/ops/OrderStory.java", "a --json key"),
      new OtherMeaning("id", "ops/src/main/java/com/acme/fulfil/ops/Drop.java", "a --json key"),
      new OtherMeaning("status", "ops/src/main/java/com/acme/fulfil/ops/OrderStory.java", "a --json key"),
      new OtherMeaning("tries", "ops/", "a --json key"),
      new OtherMeaning("last_try_at", "ops/", "a --json key"),
      new OtherMeaning("last_outcome", "ops/", "a --json key"),
      new OtherMeaning("last_reason", "ops/", "a --json key"),
      new OtherMeaning("last_post_at", "ops/", "a --json key"),
      // The cold-start baseline is the least an SQS consumer can be: it shares no code with the function on purpose.
      new OtherMeaning("IDEMPOTENCY_TABLE_NAME", "tools/benchmarks/src/main/java/com/acme/fulfil/bench/baseline/",
          "the baseline's own variable"),
      new OtherMeaning("id", "tools/benchmarks/src/main/java/com/acme/fulfil/bench/baseline/", "the baseline's own table"),
      new OtherMeaning("status", "tools/benchmarks/src/main/java/com/acme/fulfil/bench/baseline/", "the baseline's own table"),
      new OtherMeaning("COMPLETED", "tools/benchmarks/src/main/java/com/acme/fulfil/bench/baseline/",
          "the baseline's own table"));

  private static Path repository;
  /** Each text the contract names, with the constants that name it. */
  private static Map<String, TreeSet<String>> names;

  @BeforeAll
  static void readTheContract() throws URISyntaxException, IOException, ClassNotFoundException {
    Path compiled = Path.of(TimingBudget.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    repository = compiled.getParent().getParent().getParent();
    names = new TreeMap<>();
    List<Path> classFiles;
    try (Stream<Path> files = Files.walk(compiled)) {
      classFiles = files.filter(f -> f.toString().endsWith(".class")).toList();
    }
    for (Path classFile : classFiles) {
      String className = compiled.relativize(classFile).toString().replace('/', '.').replaceAll("\\.class$", "");
      for (Field field : Class.forName(className, false, NamesAreSpelledOnceTest.class.getClassLoader()).getDeclaredFields()) {
        int modifiers = field.getModifiers();
        if (Modifier.isPublic(modifiers) && Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers)
            && field.getType() == String.class) {
          try {
            names.computeIfAbsent((String) field.get(null), k -> new TreeSet<>())
                .add(field.getDeclaringClass().getName() + "." + field.getName());
          } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
          }
        }
      }
    }
    assertThat(names).as("the contract's names").containsKey("orders-to-fulfil");
  }

  @Test
  void noModuleSpellsAContractNameItself() throws IOException {
    List<Path> sources = mainSources();
    assertThat(sources).as("the modules' main sources")
        .anyMatch(f -> f.startsWith(repository.resolve("function")))
        .anyMatch(f -> f.startsWith(repository.resolve("ops")));
    List<String> spelled = new ArrayList<>();
    for (Path file : sources) {
      String where = repository.relativize(file).toString();
      for (Literal literal : literals(Files.readString(file))) {
        if (names.containsKey(literal.text()) && OTHER_MEANINGS.stream()
            .noneMatch(other -> other.text().equals(literal.text()) && where.startsWith(other.where()))) {
          spelled.add(where + ":" + literal.line() + " spells \"" + literal.text() + "\": use " + names.get(literal.text()));
        }
      }
    }
    assertThat(spelled).as("names spelled outside their home").isEmpty();
  }

  @Test
  void everyOtherMeaningIsStillThere() throws IOException {
    List<String> unused = new ArrayList<>();
    for (OtherMeaning other : OTHER_MEANINGS) {
      boolean found = false;
      for (Path file : mainSources()) {
        if (repository.relativize(file).toString().startsWith(other.where())
            && literals(Files.readString(file)).stream().anyMatch(l -> l.text().equals(other.text()))) {
          found = true;
          break;
        }
      }
      if (!found) {
        unused.add(other.toString());
      }
    }
    assertThat(unused).as("exceptions that no longer except anything: remove them").isEmpty();
  }

  @Test
  void theScannerReadsLiteralsAndSkipsCommentsCharactersAndTextBlocks() {
    String source = """
        // "in a comment"
        /* "in a block" */ String a = "one"; char q = '"'; String b = "two \\" still";
        String c = \"""
            "in a text block"
            \""";
        String d = "three";
        """;
    assertThat(literals(source)).containsExactly(new Literal("one", 2), new Literal("two \\\" still", 2),
        new Literal("three", 6));
  }

  private static List<Path> mainSources() throws IOException {
    List<Path> roots = new ArrayList<>();
    try (Stream<Path> modules = Stream.concat(Files.list(repository), Files.list(repository.resolve("tools")))) {
      modules.map(module -> module.resolve("src/main/java")).filter(Files::isDirectory)
          .filter(root -> !root.startsWith(repository.resolve("contract"))).forEach(roots::add);
    }
    List<Path> files = new ArrayList<>();
    for (Path root : roots) {
      try (Stream<Path> walk = Files.walk(root)) {
        walk.filter(f -> f.toString().endsWith(".java")).sorted().forEach(files::add);
      }
    }
    return files;
  }

  record Literal(String text, int line) {}

  /** The string literals of a Java source, as written (escapes kept), outside comments and text blocks. */
  static List<Literal> literals(String source) {
    List<Literal> found = new ArrayList<>();
    int line = 1;
    int i = 0;
    while (i < source.length()) {
      char c = source.charAt(i);
      if (source.startsWith("//", i)) {
        i = source.indexOf('\n', i) < 0 ? source.length() : source.indexOf('\n', i);
      } else if (source.startsWith("/*", i) || source.startsWith("\"\"\"", i)) {
        int end = source.startsWith("/*", i) ? source.indexOf("*/", i + 2) + 2 : textBlockEnd(source, i + 3);
        line += (int) source.substring(i, end).chars().filter(ch -> ch == '\n').count();
        i = end;
      } else if (c == '\'' || c == '"') {
        int end = i + 1;
        while (source.charAt(end) != c) {
          end += source.charAt(end) == '\\' ? 2 : 1;
        }
        if (c == '"') {
          found.add(new Literal(source.substring(i + 1, end), line));
        }
        i = end + 1;
      } else {
        line += c == '\n' ? 1 : 0;
        i++;
      }
    }
    return found;
  }

  private static int textBlockEnd(String source, int from) {
    int end = from;
    while (!source.startsWith("\"\"\"", end)) {
      end += source.charAt(end) == '\\' ? 2 : 1;
    }
    return end + 3;
  }
}
