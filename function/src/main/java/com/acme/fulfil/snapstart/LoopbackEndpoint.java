package com.acme.fulfil.snapstart;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A throw-away HTTP endpoint on loopback that answers what priming sends the way AWS and the partner
 * would answer a request that finds nothing: an empty item, a placeholder secret, an empty lookup, one
 * shipment. It lives only while the function primes, one connection at a time, each closed after its
 * answer, so no pooled connection outlives it into the snapshot.
 */
final class LoopbackEndpoint implements AutoCloseable {
  private static final Map<String, String> AWS_ANSWERS = Map.of(
      "secretsmanager.GetSecretValue", "{\"Name\":\"snapstart-priming\",\"SecretString\":\"snapstart-priming\"}",
      "AmazonSQS.GetQueueUrl", "{\"QueueUrl\":\"http://127.0.0.1/000000000000/snapstart-priming\"}",
      "AmazonSQS.ChangeMessageVisibilityBatch", "{\"Successful\":[],\"Failed\":[]}");
  private static final String SHIPMENT = "{\"shipment_id\":\"SHP-SNAPSTART-PRIMING\",\"order_id\":\"ORD-SNAPSTART-PRIMING\","
      + "\"courier\":\"priming\",\"tracking_number\":\"0\",\"label_url\":\"https://127.0.0.1/label\"}";

  private final ServerSocket server;
  private final AtomicInteger answered = new AtomicInteger();
  private volatile boolean closed;

  private LoopbackEndpoint(ServerSocket server) {
    this.server = server;
  }

  static LoopbackEndpoint start() throws IOException {
    LoopbackEndpoint endpoint = new LoopbackEndpoint(new ServerSocket(0, 16, InetAddress.getLoopbackAddress()));
    Thread.ofPlatform().daemon().name("snapstart-priming-loopback").start(endpoint::serve);
    return endpoint;
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  /** Requests answered so far. */
  int answered() {
    return answered.get();
  }

  private void serve() {
    while (!closed) {
      try (Socket connection = server.accept()) {
        answer(connection);
        answered.incrementAndGet();
      } catch (IOException e) {
        if (closed) {
          return;
        }
      }
    }
  }

  private static void answer(Socket connection) throws IOException {
    InputStream in = new BufferedInputStream(connection.getInputStream());
    String[] requestLine = line(in).split(" ");
    Map<String, String> headers = new HashMap<>();
    for (String header = line(in); !header.isEmpty(); header = line(in)) {
      int colon = header.indexOf(':');
      headers.put(header.substring(0, colon).strip().toLowerCase(Locale.ROOT), header.substring(colon + 1).strip());
    }
    in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
    String target = headers.get("x-amz-target");
    int status;
    String body;
    if (target != null) {
      status = 200;
      body = AWS_ANSWERS.getOrDefault(target, "{}");
    } else if ("POST".equals(requestLine[0])) {
      status = 201;
      body = SHIPMENT;
    } else {
      status = 200;
      body = "{\"shipments\":[]}";
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    OutputStream out = connection.getOutputStream();
    out.write(("HTTP/1.1 " + status + (status == 201 ? " Created" : " OK") + "\r\n"
        + "Content-Type: " + (target != null ? "application/x-amz-json-1.0" : "application/json") + "\r\n"
        + "Content-Length: " + bytes.length + "\r\n"
        + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(bytes);
    out.flush();
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != -1 && b != '\n'; b = in.read()) {
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.US_ASCII);
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
  }
}
