package com.acme.fulfil.observability;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.slf4j.MDC;

/**
 * One JSON object per line: the fields CloudWatch Logs Insights queries and the runbook use (docs/design.md),
 * then every key of the logging context, read on the thread that logs (java.util.logging formats in the caller).
 */
public final class JsonLogFormatter extends Formatter {
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private final JsonFactory json = new JsonFactory();

  @Override
  public String format(LogRecord record) {
    StringWriter line = new StringWriter(256);
    try (JsonGenerator out = json.createGenerator(line)) {
      out.writeStartObject();
      out.writeStringField("timestamp", TIMESTAMP.format(record.getInstant()));
      out.writeStringField("level", level(record.getLevel()));
      out.writeStringField("logger", record.getLoggerName());
      out.writeStringField("message", formatMessage(record));
      Throwable thrown = record.getThrown();
      if (thrown != null) {
        out.writeObjectFieldStart("error");
        out.writeStringField("type", thrown.getClass().getName());
        out.writeStringField("message", thrown.getMessage());
        StringWriter stack = new StringWriter();
        thrown.printStackTrace(new PrintWriter(stack));
        out.writeStringField("stack", stack.toString());
        out.writeEndObject();
      }
      Map<String, String> context = Objects.requireNonNullElse(MDC.getCopyOfContextMap(), Map.of());
      for (Map.Entry<String, String> key : new TreeMap<>(context).entrySet()) {
        out.writeStringField(key.getKey(), key.getValue());
      }
      out.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return line.append(System.lineSeparator()).toString();
  }

  /** SLF4J's level names, which SLF4J's java.util.logging binding maps to FINEST/FINE/INFO/WARNING/SEVERE. */
  static String level(Level level) {
    int value = level.intValue();
    return value >= Level.SEVERE.intValue() ? "ERROR"
        : value >= Level.WARNING.intValue() ? "WARN"
        : value >= Level.INFO.intValue() ? "INFO"
        : value >= Level.FINE.intValue() ? "DEBUG" : "TRACE";
  }
}
