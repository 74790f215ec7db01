package com.acme.fulfil.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;

/** Writes a JSON body with its status line; the one place both servers serialise a response. */
final class JsonReply {

  private final ObjectMapper json;
  private final String contentType;

  JsonReply(ObjectMapper json, String contentType) {
    this.json = json;
    this.contentType = contentType;
  }

  void send(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes = serialise(body);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** A body written exactly as given, under the JSON content type: what a partner having a bad day sends. */
  void sendAsIs(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private byte[] serialise(Object body) {
    try {
      return json.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a simulator built a response it cannot serialise", e);
    }
  }
}
