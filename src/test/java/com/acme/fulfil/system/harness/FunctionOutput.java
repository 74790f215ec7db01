package com.acme.fulfil.system.harness;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The function's standard output (its JSON log lines and EMF metrics, what CloudWatch Logs would
 * receive) goes to {@code target/function-stdout-PID.log} for the whole test run, one file per test JVM,
 * where it does not bury the build's console. Standard output is one per
 * process and the packaged function writes to it directly, so it is swapped once, when the run starts
 * (registered in META-INF/services).
 */
public final class FunctionOutput implements LauncherSessionListener {
  private static volatile PrintStream console = System.out;
  /** Three test JVMs write at once: a file each, or they overwrite each other's lines. */
  private static final Path FILE = Path.of("target", "function-stdout-" + ProcessHandle.current().pid() + ".log");

  @Override
  public void launcherSessionOpened(LauncherSession session) {
    Path file = FILE;
    try {
      Files.createDirectories(file.getParent());
      PrintStream original = System.out;
      System.setOut(new PrintStream(new FileOutputStream(file.toFile()), true, StandardCharsets.UTF_8));
      console = original;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What the function has written in this JVM so far. */
  static Path file() {
    return FILE;
  }

  /** The console as it was before the swap. */
  static PrintStream console() {
    return console;
  }
}
