package com.acme.fulfil.sim;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A JDK HTTP server on 127.0.0.1 with an ephemeral port and one virtual thread per exchange.
 *
 * <p>Virtual threads because the partner holds hundreds of exchanges open for seconds (scaled
 * latency) or indefinitely (a scripted hang): a platform-thread pool would cap concurrency and
 * hide exactly the in-flight pile-up the tests look for.
 */
final class LoopbackServer implements AutoCloseable {

  private static final int BACKLOG = 512;
  private static final long HANDLER_GRACE_SECONDS = 5;

  private final HttpServer server;
  private final ExecutorService exchanges;

  private LoopbackServer(HttpServer server, ExecutorService exchanges) {
    this.server = server;
    this.exchanges = exchanges;
  }

  static LoopbackServer start(HttpHandler handler) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), BACKLOG);
    } catch (IOException e) {
      throw new UncheckedIOException("could not bind a loopback port", e);
    }
    ExecutorService exchanges = Executors.newVirtualThreadPerTaskExecutor();
    server.setExecutor(exchanges);
    server.createContext("/", handler);
    server.start();
    return new LoopbackServer(server, exchanges);
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Closes every connection, then interrupts the handlers still sleeping or holding. */
  @Override
  public void close() {
    server.stop(0);
    exchanges.shutdownNow();
    try {
      exchanges.awaitTermination(HANDLER_GRACE_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
