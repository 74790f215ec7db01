package com.acme.fulfil.local.scenario;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The drill of docs/runbook.md ("Practise on the local stack"): AWS CLI commands that put an order
 * and a poison message through the local stack and take the poison one through the DLQ procedure.
 * {@code --serve} prints this text and the runbook shows it; the runbook's test checks the two are
 * the same and runs every command.
 */
public final class RunbookDrill {
  private static final String RESOURCE = "runbook-drill.txt";

  private RunbookDrill() {}

  /** The drill's lines, comments included, as the runbook's code block holds them. */
  public static String text() {
    try (InputStream in = RunbookDrill.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the local module's resources");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
