package com.acme.fulfil.ops;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * One run of {@code ./fulfil-ops}, in this JVM, with its own environment and output streams. A {@code
 * --json} run that did its job (exit 0 or 1) is held to the fields docs/fulfil-ops.md promises.
 */
record OpsRun(int exitCode, String out, String err) {
  OpsRun(Map<String, String> environment, String... args) throws InterruptedException {
    this(new ByteArrayOutputStream(), new ByteArrayOutputStream(), environment, args);
    if (List.of(args).contains("--json") && exitCode <= 1 && !List.of(args).contains("--help")) {
      DocumentedJsonFields.check(args[0], out);
    }
  }

  private OpsRun(ByteArrayOutputStream out, ByteArrayOutputStream err, Map<String, String> environment, String... args)
      throws InterruptedException {
    this(FulfilOps.run(args, environment, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Clock.systemUTC()), out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }
}
