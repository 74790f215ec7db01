package com.acme.fulfil.local;

import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * Where log lines go, decided before anything logs. A scenario run keeps the terminal for its
 * progress line and report: the stack's own logs go to one file, and the function's standard output
 * (its JSON log lines and EMF metrics, what CloudWatch Logs would receive) to another. The serving
 * mode leaves the function's output on the terminal, as a tail of CloudWatch would show it.
 */
final class LocalLogging {
  static final String LOG_FILE_PROPERTY = "fulfil.local.logFile";

  private LocalLogging() {}

  /** The scenario's log files; the terminal stream is the process's standard output before redirection. */
  record Files(Path stack, Path function, PrintStream terminal) {}

  static Files forScenario() {
    Path directory = Path.of(System.getProperty("java.io.tmpdir"));
    Path stack = directory.resolve("fulfil-order-local-run.log").toAbsolutePath();
    Path function = directory.resolve("fulfil-order-function.log").toAbsolutePath();
    System.setProperty(LOG_FILE_PROPERTY, stack.toString());
    // Programmatic, not the log4j2.configurationFile property: that property is process-wide and the
    // function, in its own class loader with its own Log4j, would read it too.
    Configurator.initialize("local-run", LocalLogging.class.getClassLoader(), "classpath:local-run-log4j2.xml");
    PrintStream terminal = System.out;
    try {
      System.setOut(new PrintStream(new FileOutputStream(function.toFile()), true, StandardCharsets.UTF_8));
    } catch (FileNotFoundException e) {
      throw new UncheckedIOException(e);
    }
    return new Files(stack, function, terminal);
  }
}
