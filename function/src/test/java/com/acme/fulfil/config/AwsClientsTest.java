package com.acme.fulfil.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** What the function's SDK clients put on the wire, seen by an HTTP server on loopback. */
class AwsClientsTest {
  private record Seen(Headers headers, byte[] body) {}

  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private HttpServer server;

  private final Map<String, Optional<String>> replacedProperties = new HashMap<>();

  @BeforeEach
  void startServer() throws IOException {
    // The clients take credentials from the default chain, which reads these first.
    for (String name : List.of("aws.accessKeyId", "aws.secretAccessKey")) {
      replacedProperties.put(name, Optional.ofNullable(System.setProperty(name, "test")));
    }
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      seen.add(new Seen(exchange.getRequestHeaders(), exchange.getRequestBody().readAllBytes()));
      byte[] answer = "{}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
      exchange.sendResponseHeaders(200, answer.length);
      exchange.getResponseBody().write(answer);
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
    replacedProperties.forEach((name, previous) -> previous.ifPresentOrElse(
        value -> System.setProperty(name, value), () -> System.clearProperty(name)));
  }

  @Test
  void aWriteArrivesWithItsBodyInOnePieceAndASignatureThatDoesNotDependOnItsLength() {
    URI endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    AwsClients clients = AwsClients.create(
        new FunctionConfig.AwsEndpoints(Optional.of("eu-west-1"), Optional.of(endpoint), Optional.empty(), Optional.empty()));

    for (int i = 0; i < 3; i++) {
      String key = "ORD-" + i;
      clients.dynamoDb().putItem(r -> r.tableName("fulfil-order-idempotency")
          .item(Map.of("id", AttributeValue.fromS(key))));
    }

    assertEquals(3, seen.size());
    for (Seen request : seen) {
      // Buffered by the JDK, which then sets the length itself: not chunked, not streamed.
      assertEquals(String.valueOf(request.body().length), request.headers().getFirst("Content-Length"));
      assertNull(request.headers().getFirst("Transfer-Encoding"));
      String authorization = request.headers().getFirst("Authorization");
      assertFalse(authorization.contains("content-length"), authorization);
      assertEquals("DynamoDB_20120810.PutItem", request.headers().getFirst("X-Amz-Target"));
    }
  }
}
