package com.acme.fulfil.runbook;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** docs/runbook.md as its tests read it: sections ({@code ## } headings), their code blocks, commands and tables. */
record RunbookDocument(String text, List<Section> sections) {
  private static final Pattern FENCE = Pattern.compile("^(\\s*)```(\\w*)\\s*$");
  private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");

  static RunbookDocument read(Path file) {
    try {
      return parse(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static RunbookDocument parse(String text) {
    List<Section> sections = new ArrayList<>();
    String title = null;
    List<String> body = new ArrayList<>();
    for (String line : text.lines().toList()) {
      if (line.startsWith("## ")) {
        if (title != null) {
          sections.add(new Section(title, List.copyOf(body)));
        }
        title = line.substring(3).strip();
        body.clear();
      } else if (title != null) {
        body.add(line);
      }
    }
    if (title != null) {
      sections.add(new Section(title, List.copyOf(body)));
    }
    return new RunbookDocument(text, List.copyOf(sections));
  }

  /** The one section whose title contains {@code fragment}. */
  Section section(String fragment) {
    List<Section> matching = sections.stream().filter(s -> s.title().contains(fragment)).toList();
    if (matching.size() != 1) {
      throw new AssertionError("docs/runbook.md should have exactly one section titled with '" + fragment
          + "', has " + matching.stream().map(Section::title).toList());
    }
    return matching.getFirst();
  }

  /** The commands of a shell script: one per line (a trailing backslash continues it), comments and blank lines left out. */
  static List<String> shellCommands(String script) {
    List<String> commands = new ArrayList<>();
    StringBuilder continued = new StringBuilder();
    for (String line : script.lines().toList()) {
      if (continued.isEmpty() && (line.isBlank() || line.strip().startsWith("#"))) {
        continue;
      }
      if (line.endsWith("\\")) {
        continued.append(line, 0, line.length() - 1);
        continue;
      }
      commands.add(continued.append(line).toString().strip());
      continued.setLength(0);
    }
    return commands;
  }

  /** One {@code ## } section: its title and the lines up to the next one. */
  record Section(String title, List<String> lines) {

    /** Code blocks with this info string, indentation of the fence removed. */
    List<String> codeBlocks(String language) {
      List<String> blocks = new ArrayList<>();
      for (int i = 0; i < lines.size(); i++) {
        Matcher open = FENCE.matcher(lines.get(i));
        if (!open.matches()) {
          continue;
        }
        int indent = open.group(1).length();
        StringBuilder block = new StringBuilder();
        int j = i + 1;
        for (; j < lines.size() && !lines.get(j).strip().equals("```"); j++) {
          String line = lines.get(j);
          block.append(line.length() >= indent && line.substring(0, indent).isBlank() ? line.substring(indent) : line.strip())
              .append('\n');
        }
        if (open.group(2).equals(language)) {
          blocks.add(block.toString());
        }
        i = j;
      }
      return blocks;
    }

    /** The shell commands of the {@code sh} blocks, in order. */
    List<String> commands() {
      return codeBlocks("sh").stream().flatMap(block -> shellCommands(block).stream()).toList();
    }

    /** Every backticked name in the first column of the section's first table, header and rule left out. */
    List<String> firstColumnNames() {
      List<String> names = new ArrayList<>();
      boolean inTable = false;
      int row = 0;
      for (String line : lines) {
        boolean tableLine = line.strip().startsWith("|");
        if (inTable && !tableLine) {
          break;
        }
        if (tableLine) {
          inTable = true;
          if (row++ >= 2) {
            String firstCell = Arrays.asList(line.strip().split("\\|")).get(1);
            Matcher name = BACKTICKED.matcher(firstCell);
            while (name.find()) {
              names.add(name.group(1));
            }
          }
        }
      }
      return names;
    }

    String text() {
      return String.join("\n", lines);
    }
  }
}
