package com.acme.fulfil.system.harness;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * An AWS service endpoint with an outage on demand: a loopback HTTP proxy in front of the backend's
 * real endpoint (DynamoDB, Secrets Manager) that the function is pointed at instead. It forwards every
 * request unchanged, unless a fault is set for the request's operation (its {@code X-Amz-Target}, such
 * as {@code DynamoDB_20120810.UpdateItem}): then it answers 503, optionally after holding the request,
 * and the real service never sees it. A test may also script answers for an operation: what AWS
 * documents a service answers in a case an emulator answers otherwise. Works in front of any backend
 * that has endpoint overrides.
 */
public final class FaultyEndpoint implements AutoCloseable {
  private static final Set<String> HOP_BY_HOP = Set.of(
      "host", "connection", "content-length", "expect", "upgrade", "transfer-encoding", "keep-alive", "te", "trailer");
  private static final Refusal UNAVAILABLE = new Refusal(503, """
      {"__type":"ServiceUnavailable","message":"outage injected by a system test"}""");
  private static final Refusal THROTTLED = new Refusal(400, """
      {"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",\
      "message":"throttling injected by a system test"}""");

  private final URI upstream;
  private final HttpServer server;
  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final Map<String, AtomicInteger> refused = new ConcurrentHashMap<>();
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private volatile Fault fault = Fault.NONE;
  private volatile CountDownLatch released = new CountDownLatch(1);

  /** What a failed request is answered. */
  private record Refusal(int status, String body) {
    byte[] bytes() {
      return body.getBytes(StandardCharsets.UTF_8);
    }
  }

  /** Which requests fail (by operation and body), how long each is held, and what it is answered. */
  private record Fault(BiPredicate<String, String> requests, Duration hold, Refusal answer) {
    static final Fault NONE = new Fault((operation, body) -> false, Duration.ZERO, UNAVAILABLE);
  }

  /** A scripted 200 for the next {@code left} requests of one operation, and how many it answered. */
  private record Answer(Predicate<String> requests, AtomicInteger left, AtomicInteger given, UnaryOperator<String> body) {}

  private FaultyEndpoint(URI upstream) {
    this.upstream = upstream;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/", this::handle);
    server.start();
  }

  public static FaultyEndpoint inFrontOf(URI upstream) {
    return new FaultyEndpoint(upstream);
  }

  /** Where to point the function instead of the real endpoint. */
  public URI uri() {
    return URI.create("http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort());
  }

  /** Every request fails at once, until {@link #heal()}. */
  public void failEverything() {
    fault = new Fault((operation, body) -> true, Duration.ZERO, UNAVAILABLE);
  }

  /** Requests for these operations (e.g. {@code UpdateItem}) fail at once, until {@link #heal()}. */
  public void fail(String... operations) {
    Set<String> failing = Set.of(operations);
    fault = new Fault((operation, body) -> failing.contains(operation), Duration.ZERO, UNAVAILABLE);
  }

  /**
   * Requests for {@code operation} whose body contains {@code bodyMark} fail at once, until
   * {@link #heal()}: one kind of write among many of the same operation (for DynamoDB, the update
   * that records a booking sets {@code "COMPLETED"}).
   */
  public void fail(String operation, String bodyMark) {
    fault = new Fault((op, body) -> op.equals(operation) && body.contains(bodyMark), Duration.ZERO, UNAVAILABLE);
  }

  /**
   * Requests for {@code operation} whose body contains {@code bodyMark} are refused as DynamoDB refuses
   * a request over the table's throughput (400, {@code ProvisionedThroughputExceededException}), until
   * {@link #heal()}.
   */
  public void throttle(String operation, String bodyMark) {
    fault = new Fault((op, body) -> op.equals(operation) && body.contains(bodyMark), Duration.ZERO, THROTTLED);
  }

  /**
   * Requests for {@code operation} whose body contains {@code bodyMark} hang for {@code hold} (or until
   * {@link #heal()}) and then fail: a service that stops answering in the middle of an invocation.
   */
  public void stall(String operation, String bodyMark, Duration hold) {
    fault = new Fault((op, body) -> op.equals(operation) && body.contains(bodyMark), hold, UNAVAILABLE);
  }

  /** Back to forwarding everything; stalled requests are let go (with their 503) at once. */
  public void heal() {
    fault = Fault.NONE;
    CountDownLatch stalled = released;
    released = new CountDownLatch(1);
    stalled.countDown();
  }

  /**
   * The next {@code times} requests for {@code operation} are answered 200 with what {@code answer}
   * makes of their body (JSON), and never reach the service; {@code answer} may call the service itself.
   */
  public void answer(String operation, int times, UnaryOperator<String> answer) {
    answers.put(operation, new Answer(request -> true, new AtomicInteger(times), new AtomicInteger(), answer));
  }

  /**
   * Every request for {@code operation} whose body (JSON) {@code requests} picks is answered 200 with
   * what {@code answer} makes of it, and never reaches the service; the others do.
   */
  public void answer(String operation, Predicate<String> requests, UnaryOperator<String> answer) {
    answers.put(operation, new Answer(requests, new AtomicInteger(Integer.MAX_VALUE), new AtomicInteger(), answer));
  }

  /** Requests for {@code operation} that got a scripted answer. */
  public int answered(String operation) {
    Answer answer = answers.get(operation);
    return answer == null ? 0 : answer.given().get();
  }

  /** Requests for {@code operation} that got the injected failure instead of the service. */
  public int refused(String operation) {
    AtomicInteger count = refused.get(operation);
    return count == null ? 0 : count.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String operation = operation(exchange.getRequestHeaders().getFirst("X-Amz-Target"));
      byte[] body = exchange.getRequestBody().readAllBytes();
      Answer scripted = answers.get(operation);
      if (scripted != null && scripted.requests().test(new String(body, StandardCharsets.UTF_8))
          && scripted.left().getAndDecrement() > 0) {
        scripted.given().incrementAndGet();
        byte[] answer = scripted.body().apply(new String(body, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.0");
        exchange.sendResponseHeaders(200, answer.length);
        exchange.getResponseBody().write(answer);
        return;
      }
      Fault now = fault;
      if (now.requests().test(operation, new String(body, StandardCharsets.UTF_8))) {
        refused.computeIfAbsent(operation, key -> new AtomicInteger()).incrementAndGet();
        CountDownLatch release = released;
        if (now.hold().isPositive()) {
          release.await(now.hold().toMillis(), TimeUnit.MILLISECONDS);
        }
        byte[] answer = now.answer().bytes();
        exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
        exchange.sendResponseHeaders(now.answer().status(), answer.length);
        exchange.getResponseBody().write(answer);
        return;
      }
      forward(exchange, body);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void forward(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(upstream.resolve(exchange.getRequestURI().toString()))
        .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
    exchange.getRequestHeaders().forEach((name, values) -> {
      if (!HOP_BY_HOP.contains(name.toLowerCase())) {
        values.forEach(value -> request.header(name, value));
      }
    });
    HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    response.headers().map().forEach((name, values) -> {
      if (!HOP_BY_HOP.contains(name.toLowerCase()) && !name.startsWith(":")) {
        exchange.getResponseHeaders().put(name, List.copyOf(values));
      }
    });
    byte[] answer = response.body();
    exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
    if (answer.length > 0) {
      exchange.getResponseBody().write(answer);
    }
  }

  /** {@code DynamoDB_20120810.UpdateItem} and {@code secretsmanager.GetSecretValue} name their operation last. */
  private static String operation(String target) {
    if (target == null) {
      return "";
    }
    return target.substring(target.lastIndexOf('.') + 1);
  }

  @Override
  public void close() {
    heal();
    server.stop(0);
    client.close();
  }
}
