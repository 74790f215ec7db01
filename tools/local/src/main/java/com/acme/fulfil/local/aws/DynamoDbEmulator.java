package com.acme.fulfil.local.aws;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * DynamoDB on this machine: Dynoxide, an open-source DynamoDB emulator (MIT or Apache-2.0; one binary on
 * an in-memory SQLite database, one database whatever the caller's credentials and region), as a child
 * process on a loopback port. It is up within milliseconds; the caller waits for its "listening" line,
 * printed once the port is bound.
 *
 * <p>It never outlives the JVM that started it. It runs under a small shell that ends it when its standard
 * input closes: {@link #close()} closes it, so does a shutdown hook when the JVM exits without closing it
 * (a {@code System.exit}, Ctrl-C), and the operating system does when the JVM is killed outright. The
 * shell ignores Ctrl-C itself so that it is still there to end the emulator, which, as a background
 * child of a script, ignores Ctrl-C too.
 */
public final class DynamoDbEmulator implements AutoCloseable {
  private static final String LOOPBACK = "127.0.0.1";
  /** About 10 ms on a quiet machine: the margin is for a loaded one, and for a first start from a cold disk. */
  private static final Duration READY_WITHIN = Duration.ofSeconds(30);
  private static final Duration STOP_WITHIN = Duration.ofSeconds(10);
  /** The free port is found before the emulator binds it, so another process can take it in between. */
  private static final int PORT_TRIES = 5;
  private static final String SUPERVISOR = """
      trap '' INT
      "$0" serve --host "$1" --port "$2" &
      emulator=$!
      read -r _
      kill "$emulator" 2>/dev/null
      wait "$emulator"
      """;

  private final Process supervisor;
  private final URI endpoint;
  private final Thread stopOnExit;

  private DynamoDbEmulator(Process supervisor, int port) {
    this.supervisor = supervisor;
    this.endpoint = URI.create("http://" + LOOPBACK + ":" + port);
    this.stopOnExit = new Thread(this::stop, "stop-dynamodb-emulator");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  /** Starts an empty in-memory emulator on a free loopback port. */
  public static DynamoDbEmulator start() {
    Path binary = DynamoDbEmulatorBinary.installed();
    String refused = "";
    for (int attempt = 1; attempt <= PORT_TRIES; attempt++) {
      int port = freeLoopbackPort();
      Process supervisor = launch(binary, port);
      String failure = awaitListening(supervisor);
      if (failure == null) {
        return new DynamoDbEmulator(supervisor, port);
      }
      endNow(supervisor);
      if (!failure.contains("already in use")) {
        throw new IllegalStateException("the DynamoDB emulator (" + binary + ") did not start: " + failure);
      }
      refused = failure;
    }
    throw new IllegalStateException("the DynamoDB emulator found no free port in " + PORT_TRIES + " tries: " + refused);
  }

  public URI endpoint() {
    return endpoint;
  }

  /** Ends the emulator and waits until it is gone; its data goes with it. */
  @Override
  public void close() {
    stop();
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down: the hook has run or runs now, and stopping twice is harmless.
    }
  }

  private void stop() {
    try {
      supervisor.getOutputStream().close();
      if (!supervisor.waitFor(STOP_WITHIN.toMillis(), TimeUnit.MILLISECONDS)) {
        endNow(supervisor);
      }
    } catch (IOException e) {
      endNow(supervisor);
    } catch (InterruptedException e) {
      endNow(supervisor);
      Thread.currentThread().interrupt();
    }
  }

  private static Process launch(Path binary, int port) {
    try {
      return new ProcessBuilder("/bin/sh", "-c", SUPERVISOR, binary.toString(), LOOPBACK, Integer.toString(port))
          .redirectErrorStream(true)
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run the DynamoDB emulator " + binary, e);
    }
  }

  /**
   * Reads the emulator's output until it says it listens; null then, or what it said before it stopped or
   * the time ran out. The rest of its output is read and dropped, so that it never blocks on a full pipe.
   */
  private static String awaitListening(Process supervisor) {
    CompletableFuture<String> outcome = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      StringBuilder said = new StringBuilder();
      try (BufferedReader out = new BufferedReader(new InputStreamReader(supervisor.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          if (!outcome.isDone()) {
            if (line.contains("listening on")) {
              outcome.complete(null);
            } else {
              said.append(line).append('\n');
            }
          }
        }
      } catch (IOException e) {
        said.append(e);
      }
      outcome.complete(said.isEmpty() ? "it exited without a word" : said.toString().strip());
    }, "dynamodb-emulator-output");
    reader.setDaemon(true);
    reader.start();
    return outcome.completeOnTimeout("not listening after " + READY_WITHIN.toSeconds() + " s", READY_WITHIN.toMillis(),
        TimeUnit.MILLISECONDS).join();
  }

  /** The emulator first, then its shell: a shell killed first would leave the emulator behind. */
  private static void endNow(Process supervisor) {
    supervisor.descendants().forEach(ProcessHandle::destroyForcibly);
    supervisor.destroyForcibly();
  }

  private static int freeLoopbackPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
