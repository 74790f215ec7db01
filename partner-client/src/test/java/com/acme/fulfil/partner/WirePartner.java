package com.acme.fulfil.partner;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A partner on a raw loopback socket that answers each request with the exact bytes a test chooses,
 * and counts every request that reaches it. Raw, because the answers under test are the ones an HTTP
 * server library will not write: a 1xx as the last thing on a connection, a body cut short, a status
 * line cut in half, a connection closed before or after any byte.
 */
public final class WirePartner implements AutoCloseable {

  /**
   * One request as it arrived: what a second request for one call would show up as. {@code connection}
   * numbers the connection it came on (from 1, in the order they were accepted), {@code onConnection} its
   * place there (from 1); header names are lower case.
   */
  public record Received(String method, String target, String body, Map<String, String> headers, int connection, int onConnection) {
    /** The {@code X-Request-Id} it carried, or an empty string. */
    public String requestId() {
      return headers.getOrDefault("x-request-id", "");
    }
  }

  /**
   * What goes back on the connection: {@code bytes}, then the connection is closed if {@code close},
   * or kept for the client's next request otherwise.
   */
  public record WireAnswer(byte[] bytes, boolean close) {
    public static WireAnswer of(String text, boolean close) {
      return new WireAnswer(text.getBytes(StandardCharsets.UTF_8), close);
    }
  }

  private final ServerSocket server;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final List<Socket> connections = new CopyOnWriteArrayList<>();
  private final AtomicInteger accepted = new AtomicInteger();
  private final Set<Integer> ended = ConcurrentHashMap.newKeySet();
  private volatile Function<Received, WireAnswer> answers;

  private WirePartner(ServerSocket server) {
    this.server = server;
  }

  public static WirePartner start() {
    try {
      WirePartner partner = new WirePartner(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
      Thread.ofVirtual().name("wire-partner").start(partner::accept);
      return partner;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public URI baseUrl() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  /** From now on every request is answered by {@code answers}; the requests received so far are forgotten. */
  public void answerWith(Function<Received, WireAnswer> answers) {
    this.answers = answers;
    received.clear();
  }

  public List<Received> received() {
    return List.copyOf(received);
  }

  /** Whether the connection numbered {@code connection} has ended, closed by either side. */
  public boolean ended(int connection) {
    return ended.contains(connection);
  }

  /**
   * An answer framed as the partner frames it (a {@code Content-Length}), echoing {@code requestId} unless it is null,
   * with {@code headers} (whole header lines) before the length.
   */
  public static String answer(int status, String requestId, String body, String... headers) {
    StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(" Partner\r\n");
    if (requestId != null) {
      head.append("X-Request-Id: ").append(requestId).append("\r\n");
    }
    for (String header : headers) {
      head.append(header).append("\r\n");
    }
    head.append("Content-Length: ").append(body.getBytes(StandardCharsets.UTF_8).length).append("\r\n\r\n");
    return head + body;
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket connection = server.accept();
        connections.add(connection);
        int number = accepted.incrementAndGet();
        Thread.ofVirtual().start(() -> serve(connection, number));
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket connection, int number) {
    try (connection) {
      InputStream in = connection.getInputStream();
      OutputStream out = connection.getOutputStream();
      for (int onConnection = 1; ; onConnection++) {
        Received request = read(in, number, onConnection);
        if (request == null) {
          return;
        }
        received.add(request);
        WireAnswer answer = answers.apply(request);
        out.write(answer.bytes());
        out.flush();
        if (answer.close()) {
          return;
        }
      }
    } catch (IOException clientWentAway) {
      // The client gave up on the connection: nothing more to answer on it.
    } finally {
      connections.remove(connection);
      ended.add(number);
    }
  }

  /** The next request on the connection, or null when the client closed it. */
  private static Received read(InputStream in, int connection, int onConnection) throws IOException {
    String head = readHead(in);
    if (head == null) {
      return null;
    }
    String[] lines = head.split("\r\n");
    String[] requestLine = lines[0].split(" ");
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
      }
    }
    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
    String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
    return new Received(requestLine[0], requestLine.length > 1 ? requestLine[1] : "", body, Map.copyOf(headers), connection,
        onConnection);
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < end.length) {
      int b = in.read();
      if (b < 0) {
        return null;
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket connection : connections) {
      connection.close();
    }
  }
}
