package com.acme.fulfil.local.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Lambda's Runtime API for one execution environment, on loopback: the runtime asks for the next
 * invocation (the request blocks until there is one), then posts the response or the error to that
 * invocation's id; an initialisation failure goes to {@code /init/error}. Paths and headers are those
 * of the 2018-06-01 API that the runtime interface client speaks.
 */
final class RuntimeApi implements AutoCloseable {
  private static final String BASE = "/2018-06-01/runtime/";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One invocation handed to the runtime, and where its answer goes. */
  record Pending(String requestId, byte[] event, long deadlineEpochMs, String functionArn,
      CompletableFuture<InvokeResult> result) {}

  private final HttpServer server;
  private final ExecutorService threads;
  private final BlockingQueue<Pending> invocations = new SynchronousQueue<>();
  private final AtomicReference<Pending> current = new AtomicReference<>();
  /** Completes when the runtime first asks for work (its init is done) or reports that init failed. */
  private final CompletableFuture<InvokeResult.Failure> initialised = new CompletableFuture<>();

  RuntimeApi() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the Runtime API on loopback", e);
    }
    threads = Executors.newCachedThreadPool(task -> {
      Thread thread = new Thread(task, "runtime-api-" + server.getAddress().getPort());
      thread.setDaemon(true);
      return thread;
    });
    server.setExecutor(threads);
    server.createContext(BASE, this::route);
    server.start();
  }

  /** The value of {@code AWS_LAMBDA_RUNTIME_API}. */
  String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  /** Done with {@code null} once the runtime asks for its first invocation, or with the init error it posted. */
  CompletableFuture<InvokeResult.Failure> initialised() {
    return initialised;
  }

  /** Hands {@code pending} to the runtime's waiting {@code next} request; blocks until it is taken. */
  void offer(Pending pending) throws InterruptedException {
    invocations.put(pending);
  }

  /** The invocation the runtime is working on, if any. */
  Pending current() {
    return current.get();
  }

  private void route(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath().substring(BASE.length());
      String method = exchange.getRequestMethod();
      if (method.equals("GET") && path.equals("invocation/next")) {
        next(exchange);
      } else if (method.equals("GET") && path.equals("restore/next")) {
        // Asked after the before-checkpoint hooks ran; no snapshot is taken here, so restore at once.
        respond(exchange, 200, new byte[0]);
      } else if (method.equals("POST") && path.startsWith("invocation/") && path.endsWith("/response")) {
        answer(exchange, idIn(path, "/response"), new InvokeResult.Response(body(exchange)));
      } else if (method.equals("POST") && path.startsWith("invocation/") && path.endsWith("/error")) {
        answer(exchange, idIn(path, "/error"), failure(exchange));
      } else if (method.equals("POST") && (path.equals("init/error") || path.equals("restore/error"))) {
        initialised.complete(failure(exchange));
        respond(exchange, 202, new byte[0]);
      } else {
        respond(exchange, 404, ("no such Runtime API path: " + method + " " + path).getBytes());
      }
    }
  }

  private void next(HttpExchange exchange) throws IOException {
    initialised.complete(null);
    Pending pending;
    try {
      pending = invocations.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      respond(exchange, 500, new byte[0]);
      return;
    }
    current.set(pending);
    var headers = exchange.getResponseHeaders();
    headers.set("Lambda-Runtime-Aws-Request-Id", pending.requestId());
    headers.set("Lambda-Runtime-Deadline-Ms", Long.toString(pending.deadlineEpochMs()));
    headers.set("Lambda-Runtime-Invoked-Function-Arn", pending.functionArn());
    headers.set("Lambda-Runtime-Trace-Id", "Root=1-" + Long.toHexString(System.currentTimeMillis() / 1000)
        + "-" + pending.requestId().replace("-", "").substring(0, 24) + ";Sampled=0");
    headers.set("Content-Type", "application/json");
    respond(exchange, 200, pending.event());
  }

  private void answer(HttpExchange exchange, String requestId, InvokeResult result) throws IOException {
    Pending pending = current.get();
    if (pending == null || !pending.requestId().equals(requestId)) {
      respond(exchange, 400, ("no invocation " + requestId + " in progress").getBytes());
      return;
    }
    current.compareAndSet(pending, null);
    respond(exchange, 202, new byte[0]);
    pending.result().complete(result);
  }

  /** The runtime's error document: {@code errorType} and {@code errorMessage}, the type also in a header. */
  private static InvokeResult.Failure failure(HttpExchange exchange) throws IOException {
    byte[] body = body(exchange);
    String headerType = exchange.getRequestHeaders().getFirst("Lambda-Runtime-Function-Error-Type");
    JsonNode document = body.length == 0 ? JSON.createObjectNode() : JSON.readTree(body);
    String type = document.path("errorType").asText(headerType == null ? "Runtime.Unknown" : headerType);
    return new InvokeResult.Failure(type, document.path("errorMessage").asText(""));
  }

  private static String idIn(String path, String suffix) {
    return path.substring("invocation/".length(), path.length() - suffix.length());
  }

  private static byte[] body(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      return in.readAllBytes();
    }
  }

  private static void respond(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
