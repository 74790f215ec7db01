package com.acme.fulfil.system.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.stream.StreamSupport;

/**
 * What the function has written to standard output in this test JVM ({@link FunctionOutput}), read as
 * CloudWatch Logs would: its JSON log lines, and the Embedded Metric Format lines its metrics become.
 */
public final class FunctionLogLines {
  private static final ObjectMapper JSON = new ObjectMapper();

  private FunctionLogLines() {}

  /** The function's log lines (those with a {@code level}) whose {@code field} is {@code value}. */
  public static List<JsonNode> where(String field, String value) {
    return objects().stream()
        .filter(line -> line.has("level") && value.equals(line.path(field).asText(null)))
        .toList();
  }

  /** The sum of every value the metric {@code name} was given in the EMF lines so far. */
  public static double metricSum(String name) {
    return objects().stream()
        .filter(line -> line.has("_aws") && line.has(name))
        .mapToDouble(line -> line.get(name).isArray()
            ? StreamSupport.stream(line.get(name).spliterator(), false).mapToDouble(JsonNode::asDouble).sum()
            : line.get(name).asDouble())
        .sum();
  }

  private static List<JsonNode> objects() {
    System.out.flush();
    try (var lines = Files.lines(FunctionOutput.file())) {
      return lines.filter(line -> line.startsWith("{")).map(FunctionLogLines::parse).flatMap(Optional::stream).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Optional<JsonNode> parse(String line) {
    try {
      return Optional.of(JSON.readTree(line));
    } catch (IOException e) {
      return Optional.empty(); // a line another writer cut into
    }
  }
}
