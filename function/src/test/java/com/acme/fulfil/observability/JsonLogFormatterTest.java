package com.acme.fulfil.observability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** The formatter's output is what CloudWatch Logs receives: the runbook's queries depend on these keys. */
class JsonLogFormatterTest {
  private final JsonLogFormatter formatter = new JsonLogFormatter();
  private final ObjectMapper json = new ObjectMapper();

  @AfterEach
  void clearContext() {
    MDC.clear();
  }

  @Test
  void lineIsOneJsonObjectWithLevelLoggerMessageAndTheThreadsKeys() throws Exception {
    MDC.put("message_id", "m-1");
    MDC.put("order_id", "ORD-1");
    MDC.put("receive_count", "2");

    String line = formatter.format(record(Level.WARNING, "receive {0} of {1}", null, 2, 5));

    assertThat(line).endsWith(System.lineSeparator()).doesNotContain("\n" + "{");
    JsonNode node = json.readTree(line);
    assertThat(node.path("level").asText()).isEqualTo("WARN");
    assertThat(node.path("logger").asText()).isEqualTo("com.acme.fulfil.fulfilment.OrderFulfilment");
    assertThat(node.path("message").asText()).isEqualTo("receive 2 of 5");
    assertThat(node.path("message_id").asText()).isEqualTo("m-1");
    assertThat(node.path("order_id").asText()).isEqualTo("ORD-1");
    assertThat(node.path("receive_count").asText()).isEqualTo("2");
    assertThat(node.path("timestamp").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
    assertThat(node.has("error")).isFalse();
  }

  @Test
  void errorCarriesItsTypeMessageAndStack() throws Exception {
    JsonNode node = json.readTree(formatter.format(
        record(Level.SEVERE, "unexpected failure booking the order", new IllegalStateException("boom"))));

    assertThat(node.path("level").asText()).isEqualTo("ERROR");
    assertThat(node.path("error").path("type").asText()).isEqualTo("java.lang.IllegalStateException");
    assertThat(node.path("error").path("message").asText()).isEqualTo("boom");
    assertThat(node.path("error").path("stack").asText()).contains("JsonLogFormatterTest");
  }

  @Test
  void recordThreadsStartedByTheInvocationCarryItsRequestIdAndTheirOwnKeys() throws Exception {
    MDC.put("function_request_id", "req-1");
    Future<String> recordLine;
    try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
      recordLine = threads.submit(() -> {
        MDC.put("order_id", "ORD-2");
        return formatter.format(record(Level.INFO, "booked", null));
      });
    }

    JsonNode node = json.readTree(recordLine.get());
    assertThat(node.path("function_request_id").asText()).isEqualTo("req-1");
    assertThat(node.path("order_id").asText()).isEqualTo("ORD-2");
    assertThat(MDC.get("order_id")).isNull();
  }

  @Test
  void levelNamesAreSlf4jsNotJavaUtilLoggings() {
    assertThat(JsonLogFormatter.level(Level.FINEST)).isEqualTo("TRACE");
    assertThat(JsonLogFormatter.level(Level.FINE)).isEqualTo("DEBUG");
    assertThat(JsonLogFormatter.level(Level.INFO)).isEqualTo("INFO");
    assertThat(FunctionLogging.level("warn")).isEqualTo(Level.WARNING);
    assertThat(FunctionLogging.level("ERROR")).isEqualTo(Level.SEVERE);
  }

  private static LogRecord record(Level level, String message, Throwable thrown, Object... parameters) {
    LogRecord record = new LogRecord(level, message);
    record.setLoggerName("com.acme.fulfil.fulfilment.OrderFulfilment");
    record.setParameters(parameters);
    record.setThrown(thrown);
    return record;
  }
}
