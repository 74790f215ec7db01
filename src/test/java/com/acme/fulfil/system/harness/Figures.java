package com.acme.fulfil.system.harness;

import java.io.PrintStream;

/**
 * The figures the system tests print (orders, bookings, DLQ, wall time), on the build's console even
 * though the process's standard output goes to the function's log (see {@link FunctionOutput}).
 */
public final class Figures {
  private Figures() {}

  /** One line of figures, prefixed so a reader can grep a build log for them. */
  public static void print(String format, Object... args) {
    PrintStream console = FunctionOutput.console();
    console.println("[figures] " + String.format(format, args));
  }
}
