package com.acme.fulfil.local;

import java.nio.file.Path;

/**
 * Where log lines go, decided before anything logs. A scenario run keeps the terminal for its
 * progress line and report, so the function's and the stack's logs go to a file; the serving mode
 * shows the function's own JSON lines, as CloudWatch would.
 */
final class LocalLogging {
  static final String LOG_FILE_PROPERTY = "fulfil.local.logFile";

  private LocalLogging() {}

  /** Returns the file the scenario logs to (unused when serving). */
  static Path configure(boolean serving) {
    Path file = Path.of(System.getProperty("java.io.tmpdir"), "fulfil-order-local-run.log").toAbsolutePath();
    if (!serving) {
      System.setProperty(LOG_FILE_PROPERTY, file.toString());
      System.setProperty("log4j2.configurationFile", "local-run-log4j2.xml");
    }
    return file;
  }
}
