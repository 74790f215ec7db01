package com.acme.fulfil.system.harness;

import com.acme.fulfil.ops.FulfilOps;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The DLQ as on-call reads it: {@code ./fulfil-ops dlq --json}, run in this JVM. Each message's label
 * comes from wherever the function kept it (on the message, or in its table when the message had no
 * room for it), so a test that reads labels here reads them as on-call's tools do.
 */
public final class OnCallDlq {
  private static final ObjectMapper JSON = new ObjectMapper();

  private OnCallDlq() {}

  /** Each DLQ message's entry in {@code dlq --json}, by its own message id. */
  public static Map<String, JsonNode> lettersByMessageId(FulfilOrderUnderTest fulfil) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exitCode;
    try {
      exitCode = FulfilOps.run(new String[] {"dlq", "--json"}, fulfil.runbookEnvironment().variables(),
          new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
          Clock.systemUTC());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running dlq", e);
    }
    if (exitCode != 0) {
      throw new IllegalStateException("dlq exited with " + exitCode + ": " + err.toString(StandardCharsets.UTF_8));
    }
    Map<String, JsonNode> letters = new LinkedHashMap<>();
    try {
      JSON.readTree(out.toString(StandardCharsets.UTF_8)).path("dead_letters")
          .forEach(letter -> letters.put(letter.path("message_id").asText(), letter));
    } catch (IOException e) {
      throw new UncheckedIOException("dlq --json printed no JSON", e);
    }
    return letters;
  }
}
