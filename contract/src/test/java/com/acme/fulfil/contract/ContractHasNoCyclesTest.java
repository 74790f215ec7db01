package com.acme.fulfil.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.timing.TimingBudget;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract's packages depend one way, and so do its classes: a change to one part can be read without the
 * parts that use it. Read from the compiled classes by the JDK's jdeps, so every use counts, whether imported,
 * in the same package or fully qualified.
 */
class ContractHasNoCyclesTest {
  private static final Pattern DEPENDENCY = Pattern.compile("^\\s+(com\\.acme\\.fulfil\\.\\S+)\\s+->\\s+(com\\.acme\\.fulfil\\.\\S+)\\s.*$");

  /** Each top-level class of the contract, with the top-level classes of the contract it uses. */
  private static Map<String, Set<String>> classes;

  @BeforeAll
  static void readTheCompiledClasses() throws URISyntaxException {
    Path compiled = Path.of(TimingBudget.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    StringWriter out = new StringWriter();
    int exit = ToolProvider.findFirst("jdeps").orElseThrow()
        .run(new PrintWriter(out), new PrintWriter(out), "-verbose:class", "-filter:none", compiled.toString());
    assertThat(exit).as(out.toString()).isZero();
    classes = new TreeMap<>();
    out.toString().lines().map(DEPENDENCY::matcher).filter(Matcher::matches).forEach(line -> {
      String from = topLevel(line.group(1));
      String to = topLevel(line.group(2));
      classes.computeIfAbsent(from, k -> new TreeSet<>());
      if (!from.equals(to) && !permits(line.group(1), line.group(2))) {
        classes.get(from).add(to);
      }
    });
    assertThat(classes).as("jdeps found the contract's classes").containsKey(TimingBudget.class.getName());
  }

  @Test
  void noPackageUsesAPackageThatUsesIt() {
    Map<String, Set<String>> packages = new TreeMap<>();
    classes.forEach((from, uses) -> uses.forEach(to -> {
      packages.computeIfAbsent(packageOf(from), k -> new TreeSet<>());
      if (!packageOf(from).equals(packageOf(to))) {
        packages.get(packageOf(from)).add(packageOf(to));
      }
    }));
    assertThat(cycles(packages)).as("package cycles").isEmpty();
  }

  @Test
  void noClassUsesAClassThatUsesIt() {
    assertThat(cycles(classes)).as("class cycles (a sealed type naming its subtypes does not count)").isEmpty();
  }

  /** Each node that can reach itself, with one way round. */
  static List<String> cycles(Map<String, Set<String>> graph) {
    List<String> found = new ArrayList<>();
    for (String start : graph.keySet()) {
      List<String> path = pathBack(graph, start, start, new ArrayList<>(List.of(start)), new HashSet<>());
      if (path != null) {
        found.add(String.join(" -> ", path));
      }
    }
    return found;
  }

  private static List<String> pathBack(Map<String, Set<String>> graph, String at, String start, List<String> path,
      Set<String> seen) {
    for (String next : graph.getOrDefault(at, Set.of())) {
      if (next.equals(start)) {
        path.add(next);
        return path;
      }
      if (seen.add(next)) {
        path.add(next);
        if (pathBack(graph, next, start, path, seen) != null) {
          return path;
        }
        path.remove(path.size() - 1);
      }
    }
    return null;
  }

  /** A sealed type names the subtypes it permits: that is its design, not a cycle. */
  private static boolean permits(String sealed, String subtype) {
    try {
      Class<?>[] permitted = Class.forName(sealed).getPermittedSubclasses();
      return permitted != null && List.of(permitted).stream().map(Class::getName).anyMatch(subtype::equals);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String topLevel(String className) {
    int nested = className.indexOf('$');
    return nested < 0 ? className : className.substring(0, nested);
  }

  private static String packageOf(String className) {
    return className.substring(0, className.lastIndexOf('.'));
  }

  @Test
  void theCycleFinderFindsACycle() {
    assertThat(cycles(Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a")))).hasSize(3)
        .contains("a -> b -> c -> a");
    assertThat(cycles(Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of()))).isEmpty();
  }
}
