package com.acme.fulfil.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * CloudWatch's wire protocol as the SDK's CloudWatch client speaks it, Smithy RPC v2 CBOR, for the fakes that
 * answer as CloudWatch: the operation in the path, CBOR bodies, timestamps tagged as epoch seconds, and errors
 * with the query-compatible code header, since CloudWatch also keeps the query protocol's error codes.
 */
final class CloudWatchRpcV2 {
  private static final String OPERATION_PATH = "/service/GraniteServiceVersion20100801/operation/";
  /** CBOR's tag for a timestamp in epoch seconds. */
  private static final int EPOCH_SECONDS_TAG = 1;
  private static final CBORFactory FACTORY = new CBORFactory();
  private static final ObjectMapper CBOR = new ObjectMapper(FACTORY);

  /** Writes an answer's body. */
  interface Body {
    void write(CBORGenerator out) throws IOException;
  }

  private CloudWatchRpcV2() {}

  /** The CloudWatch operation the request calls; empty for a request that is not CloudWatch's. */
  static Optional<String> operation(HttpExchange exchange) {
    String path = exchange.getRequestURI().getPath();
    return path.startsWith(OPERATION_PATH) ? Optional.of(path.substring(OPERATION_PATH.length())) : Optional.empty();
  }

  static JsonNode request(byte[] body) throws IOException {
    return body.length == 0 ? CBOR.createObjectNode() : CBOR.readTree(body);
  }

  /** A request's timestamp: epoch seconds, whole or with a fraction. */
  static Instant timestamp(JsonNode seconds) {
    return Instant.ofEpochMilli(Math.round(seconds.asDouble() * 1000));
  }

  static void timestamp(CBORGenerator out, String field, Instant instant) throws IOException {
    out.writeFieldName(field);
    timestamp(out, instant);
  }

  static void timestamp(CBORGenerator out, Instant instant) throws IOException {
    out.writeTag(EPOCH_SECONDS_TAG);
    out.writeNumber(instant.toEpochMilli() / 1000.0);
  }

  static void strings(CBORGenerator out, String field, List<String> values) throws IOException {
    out.writeArrayFieldStart(field);
    for (String value : values) {
      out.writeString(value);
    }
    out.writeEndArray();
  }

  static void answer(HttpExchange exchange, Body body) throws IOException {
    send(exchange, 200, body);
  }

  /** An error as CloudWatch sends one: its shape in the body, its query-protocol code in a header. */
  static void error(HttpExchange exchange, int status, String code, String message) throws IOException {
    exchange.getResponseHeaders().set("x-amzn-query-error", code + ";Sender");
    send(exchange, status, out -> {
      out.writeStartObject();
      out.writeStringField("__type", "com.amazonaws.cloudwatch#" + code);
      out.writeStringField("message", message);
      out.writeEndObject();
    });
  }

  private static void send(HttpExchange exchange, int status, Body body) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CBORGenerator out = FACTORY.createGenerator(bytes)) {
      body.write(out);
    }
    exchange.getResponseHeaders().set("smithy-protocol", "rpc-v2-cbor");
    exchange.getResponseHeaders().set("Content-Type", "application/cbor");
    exchange.sendResponseHeaders(status, bytes.size());
    exchange.getResponseBody().write(bytes.toByteArray());
  }
}
