package com.acme.fulfil.iam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * An identity policy the repository commits inside a CloudFormation template (infra/*.template.json), its
 * {@code Fn::Sub} values resolved for one account and region: which action it allows on which resource, as IAM matches
 * an Allow statement's Action and Resource ({@code *} and {@code ?} as wildcards, actions without regard to case).
 * Conditions are kept, not evaluated: a test says what each must be.
 */
public record IamPolicy(List<Statement> statements) {

  /** One Allow statement. */
  public record Statement(String sid, List<String> actions, List<String> resources, JsonNode condition) {
    public boolean allows(String action, String resource) {
      return actions.stream().anyMatch(a -> glob(a, true).matcher(action).matches())
          && resources.stream().anyMatch(r -> glob(r, false).matcher(resource).matches());
    }
  }

  /**
   * The statements at {@code pointer} (a JSON pointer to a Statement array) of the template, with {@code ${NAME}} in
   * each {@code Fn::Sub} replaced by {@code values}' value; a Deny statement, which these policies have none of, fails.
   */
  public static IamPolicy in(Path template, String pointer, Map<String, String> values) {
    JsonNode statements;
    try {
      statements = new ObjectMapper().readTree(template.toFile()).at(pointer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (!statements.isArray() || statements.isEmpty()) {
      throw new IllegalArgumentException(template + " has no statements at " + pointer);
    }
    List<Statement> read = new ArrayList<>();
    for (JsonNode statement : statements) {
      if (!"Allow".equals(statement.path("Effect").asText())) {
        throw new IllegalArgumentException(template + ": only Allow statements are read, got " + statement);
      }
      read.add(new Statement(statement.path("Sid").asText(), texts(statement.path("Action"), values),
          texts(statement.path("Resource"), values), statement.path("Condition")));
    }
    return new IamPolicy(List.copyOf(read));
  }

  public boolean allows(String action, String resource) {
    return statements.stream().anyMatch(statement -> statement.allows(action, resource));
  }

  /** Whether some statement allows the action on some resource. */
  public boolean allowsAnywhere(String action) {
    return statements.stream().anyMatch(s -> s.actions().stream().anyMatch(a -> glob(a, true).matcher(action).matches()));
  }

  public Set<String> actions() {
    return statements.stream().flatMap(s -> s.actions().stream()).collect(Collectors.toCollection(TreeSet::new));
  }

  private static List<String> texts(JsonNode node, Map<String, String> values) {
    List<JsonNode> nodes = node.isArray() ? IntStream.range(0, node.size()).mapToObj(node::get).toList() : List.of(node);
    return nodes.stream().map(value -> {
      String text = value.has("Fn::Sub") ? value.path("Fn::Sub").asText() : value.asText();
      for (Map.Entry<String, String> entry : values.entrySet()) {
        text = text.replace("${" + entry.getKey() + "}", entry.getValue());
      }
      if (text.contains("${")) {
        throw new IllegalArgumentException("no value for a substitution in " + text);
      }
      return text;
    }).toList();
  }

  private static Pattern glob(String pattern, boolean ignoreCase) {
    String regex = Arrays.stream(pattern.split("((?<=[*?])|(?=[*?]))"))
        .map(part -> part.equals("*") ? ".*" : part.equals("?") ? "." : Pattern.quote(part)).collect(Collectors.joining());
    return Pattern.compile(regex, ignoreCase ? Pattern.CASE_INSENSITIVE : 0);
  }
}
