package com.acme.fulfil.local.scenario;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * The function's standard output on its way to the process's (CloudWatch Logs, locally), handed line
 * by line to a reader on the way: what a metric filter or EMF sees of it.
 */
final class ReadOutput extends OutputStream {
  private final Consumer<String> reader;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  private ReadOutput(Consumer<String> reader) {
    this.reader = reader;
  }

  static PrintStream to(Consumer<String> reader) {
    return new PrintStream(new ReadOutput(reader), true, StandardCharsets.UTF_8);
  }

  @Override
  public synchronized void write(int b) {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public synchronized void write(byte[] bytes, int offset, int length) {
    // System.out at write time: the local run points it at the function's log file after start-up.
    System.out.write(bytes, offset, length);
    for (int i = offset; i < offset + length; i++) {
      if (bytes[i] == '\n') {
        reader.accept(line.toString(StandardCharsets.UTF_8));
        line.reset();
      } else {
        line.write(bytes[i]);
      }
    }
  }

  @Override
  public void flush() {
    System.out.flush();
  }
}
