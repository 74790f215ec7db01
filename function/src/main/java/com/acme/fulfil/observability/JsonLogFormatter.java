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
import java.util.TreeMap;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.slf4j.MDC;

/**
 * One JSON object per line, with the keys CloudWatch Logs Insights queries and the runbook use:
 * {@code timestamp}, {@code level} (DEBUG, INFO, WARN, ERROR), {@code logger}, {@code message}, {@code
 * error} ({@code type}, {@code message}, {@code stack}) when there is one, and every key of the logging
 * thread's context: the invocation's ({@code function_request_id}, {@code coldStart}, {@code
 * functionName}...) and the record's ({@code message_id}, {@code order_id}, {@code receive_count}).
 *
 * <p>The context is read on the thread that logs, which is the thread the key belongs to: java.util.logging
 * formats synchronously in the caller.
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
        out.writeStringField("stack", stack(thrown));
        out.writeEndObject();
      }
      Map<String, String> context = MDC.getCopyOfContextMap();
      if (context != null) {
        for (Map.Entry<String, String> key : new TreeMap<>(context).entrySet()) {
          out.writeStringField(key.getKey(), key.getValue());
        }
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
    if (value >= Level.SEVERE.intValue()) {
      return "ERROR";
    }
    if (value >= Level.WARNING.intValue()) {
      return "WARN";
    }
    if (value >= Level.INFO.intValue()) {
      return "INFO";
    }
    return value >= Level.FINE.intValue() ? "DEBUG" : "TRACE";
  }

  private static String stack(Throwable thrown) {
    StringWriter stack = new StringWriter();
    thrown.printStackTrace(new PrintWriter(stack));
    return stack.toString();
  }
}
