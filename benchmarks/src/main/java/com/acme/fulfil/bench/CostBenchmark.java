package com.acme.fulfil.bench;

import java.io.PrintStream;
import java.nio.file.Path;

final class CostBenchmark {
  private final Path artifact;

  CostBenchmark(Path artifact) {
    this.artifact = artifact;
  }

  void run(int orders, PrintStream out) {
    throw new UnsupportedOperationException("not yet");
  }
}
