package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code --json} fields docs/fulfil-ops.md promises scripts, read from its table: every {@code
 * --json} run of a test ({@link OpsRun}) is held to them, so a field cannot be renamed, dropped or
 * added without that page saying so. A command's top-level fields must match exactly; the fields of a
 * nested object (a record, each dead letter) must be among those the page names, as some are there
 * only when known.
 */
final class DocumentedJsonFields {
  private static final Path PAGE = Path.of(System.getProperty("fulfil.repository", ".."), "docs", "fulfil-ops.md");
  private static final Pattern ROW = Pattern.compile("^\\| `([a-z]+)[^|]*\\|[^|]*\\|(.*)\\|\\s*$");
  private static final Pattern NAME = Pattern.compile("`([a-z_]+)`|([()])");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, Map<String, Set<String>>> BY_COMMAND = read();

  private DocumentedJsonFields() {}

  /** Holds {@code out}, a {@code --json} answer of {@code command}, to the page. */
  static void check(String command, String out) {
    Map<String, Set<String>> documented = BY_COMMAND.get(command);
    assertThat(documented).as("docs/fulfil-ops.md lists the --json fields of %s", command).isNotNull();
    JsonNode answer;
    try {
      answer = JSON.readTree(out);
    } catch (IOException e) {
      throw new AssertionError(command + " --json did not answer JSON: " + out, e);
    }
    List<String> fields = new ArrayList<>();
    answer.fieldNames().forEachRemaining(fields::add);
    assertThat(fields).as("%s --json's fields, as docs/fulfil-ops.md lists them", command)
        .containsExactlyInAnyOrderElementsOf(documented.keySet());
    documented.forEach((field, nested) -> {
      if (!nested.isEmpty()) {
        JsonNode value = answer.get(field);
        for (JsonNode object : value.isArray() ? value : List.of(value)) {
          List<String> inner = new ArrayList<>();
          object.fieldNames().forEachRemaining(inner::add);
          assertThat(inner).as("%s --json's %s fields, as docs/fulfil-ops.md lists them", command, field).isSubsetOf(nested);
        }
      }
    });
  }

  /** Each row's top-level names, each with the names in the parentheses after it (a value's words go unread: deeper). */
  private static Map<String, Map<String, Set<String>>> read() {
    Map<String, Map<String, Set<String>>> byCommand = new LinkedHashMap<>();
    try {
      for (String line : Files.readAllLines(PAGE)) {
        Matcher row = ROW.matcher(line);
        if (!row.matches()) {
          continue;
        }
        Map<String, Set<String>> fields = new LinkedHashMap<>();
        String last = null;
        int depth = 0;
        Matcher name = NAME.matcher(row.group(2));
        while (name.find()) {
          if ("(".equals(name.group(2))) {
            depth++;
          } else if (")".equals(name.group(2))) {
            depth--;
          } else if (depth == 0) {
            last = name.group(1);
            fields.put(last, new LinkedHashSet<>());
          } else if (depth == 1 && last != null) {
            fields.get(last).add(name.group(1));
          }
        }
        byCommand.put(row.group(1), fields);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return byCommand;
  }
}
