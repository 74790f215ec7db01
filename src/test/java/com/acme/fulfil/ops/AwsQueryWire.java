package com.acme.fulfil.ops;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The wire of AWS's query and JSON protocols as the ops tests' fakes of AWS's services answer it: a form-encoded
 * request in, an answer with its content type and a request id out (the SDK reads the id into its errors).
 */
final class AwsQueryWire {
  private AwsQueryWire() {}

  static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.getResponseHeaders().set("x-amzn-RequestId", "7c2b1e0e-example");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  /** A query-protocol request's parameters, decoded, in their order. */
  static Map<String, String> form(String encoded) {
    Map<String, String> values = new LinkedHashMap<>();
    Arrays.stream(encoded.split("&")).filter(pair -> !pair.isEmpty()).forEach(pair -> {
      String[] kv = pair.split("=", 2);
      values.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8), kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
    });
    return values;
  }

  /** Text as an XML answer's element or attribute holds it. */
  static String xml(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
