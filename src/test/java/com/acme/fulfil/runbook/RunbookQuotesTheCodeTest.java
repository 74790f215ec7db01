package com.acme.fulfil.runbook;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the runbook tells on-call to look for (a log line, a verdict, a tool's output, quoted in backticks in
 * its prose) is text the product writes: each quoted piece, between the runbook's {@code ...} and
 * placeholders, is in a string of the function's, ./fulfil-ops', the stack's or the contract's sources, or is
 * AWS's own words. A runbook once sent on-call looking for a line on a path that never wrote it; the words
 * themselves are held here, and each path that writes them by its own test (PartnerClientTest, for the key).
 */
class RunbookQuotesTheCodeTest {
  private static final Pattern QUOTED = Pattern.compile("`([^`]+)`");
  /** Not a quote: a command, a flag, a setting, a path or a placeholder the reader fills in. */
  private static final Pattern NOT_A_QUOTE = Pattern.compile("^(\\./|aws |curl|git |gh |jq |cdk |export |sqs |--|\")|/|^[^ ]+$");
  /** The runbook's elisions and placeholders: what stands between the words the product writes. */
  private static final Pattern BETWEEN = Pattern.compile("\\.\\.\\.|<[^>]*>|\\bN\\b|\\d+");
  /** A string literal, unrolled and possessive: a long text block must not exhaust the stack. */
  private static final String LITERAL = "\"([^\"\\\\\\n]*+(?:\\\\.[^\"\\\\\\n]*+)*+)\"";
  private static final Pattern STRING = Pattern.compile(LITERAL);
  private static final Pattern CONSTANT = Pattern.compile("static final String ([A-Z_][A-Z0-9_]*) = " + LITERAL + ";");
  /** A literal, or a constant by its name or its class's and its name. */
  private static final String TERM_TEXT = "(?:" + LITERAL + "|((?:[A-Z][A-Za-z]*\\.)?[A-Z][A-Z0-9_]+))";
  private static final Pattern TERM = Pattern.compile(TERM_TEXT);
  private static final Pattern CHAIN = Pattern.compile(TERM_TEXT + "(?:\\s*\\+\\s*" + TERM_TEXT + ")+");
  private static final List<String> PRODUCT = List.of("partner-client/src/main", "function/src/main", "ops/src/main", "infra/src/main",
      "contract/src/main");
  /** Words AWS writes, not this project: Lambda's report line of a try it killed. */
  private static final Set<String> AWS_WORDS = Set.of("Task timed out");

  private final Repository repository = Repository.containingThisTest();

  @Test
  void everyLineOrOutputTheRunbookQuotesIsOneTheProductWrites() {
    String product = productStrings();
    Set<String> missing = new TreeSet<>();
    int pieces = 0;
    for (String quote : quotes()) {
      if (AWS_WORDS.contains(quote)) {
        continue;
      }
      for (String piece : BETWEEN.split(quote)) {
        String words = piece.strip().replaceAll("^[:,;. ]+|[:,;. ]+$", "");
        if (words.length() >= 3) {
          pieces++;
          if (!product.contains(words)) {
            missing.add(words + "   (in `" + quote + "`)");
          }
        }
      }
    }
    assertThat(pieces).as("quoted pieces checked").isGreaterThan(20);
    assertThat(missing).as("words the runbook quotes that no product source writes").isEmpty();
  }

  /** Backticked text with a space in the runbook's prose, outside its code blocks, that is not a command. */
  private List<String> quotes() {
    List<String> quotes = new ArrayList<>();
    boolean inCode = false;
    for (String line : repository.runbook().text().lines().toList()) {
      if (line.strip().startsWith("```")) {
        inCode = !inCode;
        continue;
      }
      Matcher quoted = QUOTED.matcher(inCode ? "" : line);
      while (quoted.find()) {
        if (quoted.group(1).contains(" ") && !NOT_A_QUOTE.matcher(quoted.group(1)).find()) {
          quotes.add(quoted.group(1));
        }
      }
    }
    return quotes;
  }

  /**
   * Every string literal of the product's sources, and every chain of literals and string constants joined by
   * {@code +}, rendered with the constants' values: a message built from a constant (the key's refusal ends with
   * {@code OnCallPhrases.ROTATE_THE_SECRET}) is searched as the words it makes. Class names too: a try's line
   * names the exception that ended it.
   */
  private String productStrings() {
    List<String> sources = new ArrayList<>();
    StringBuilder all = new StringBuilder();
    for (String module : PRODUCT) {
      try (Stream<Path> files = Files.walk(repository.root().resolve(module))) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
          sources.add(Files.readString(file));
          all.append(file.getFileName().toString().replace(".java", "")).append('\u0000');
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    java.util.Map<String, String> constants = new java.util.HashMap<>();
    for (String source : sources) {
      Matcher constant = CONSTANT.matcher(source);
      while (constant.find()) {
        constants.put(constant.group(1), unescape(constant.group(2)));
      }
    }
    for (String source : sources) {
      Matcher literal = STRING.matcher(source);
      while (literal.find()) {
        all.append(unescape(literal.group(1))).append('\u0000');
      }
      Matcher chain = CHAIN.matcher(source);
      while (chain.find()) {
        StringBuilder rendered = new StringBuilder();
        Matcher term = TERM.matcher(chain.group());
        while (term.find()) {
          String name = term.group(2) == null ? null : term.group(2).substring(term.group(2).lastIndexOf('.') + 1);
          rendered.append(term.group(1) != null ? unescape(term.group(1)) : constants.getOrDefault(name, "\u0000"));
        }
        all.append(rendered).append('\u0000');
      }
    }
    return all.toString();
  }

  private static String unescape(String literal) {
    return literal.replace("\\\"", "\"").replace("\\n", "\n");
  }
}
