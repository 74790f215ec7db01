package com.acme.fulfil.observability;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import com.amazonaws.services.lambda.runtime.Context;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.slf4j.MDC;

/**
 * SLF4J (the function's code, the AWS SDK, Powertools) onto java.util.logging, written by {@link JsonLogFormatter}
 * to standard output for CloudWatch Logs: java.util.logging is in the JDK and starts in milliseconds, unlike
 * Log4j 2 (docs/performance.md). {@code FULFIL_LOG_LEVEL} sets the function's own loggers; libraries log WARN up.
 */
public final class FunctionLogging {
  private final AtomicBoolean coldStart = new AtomicBoolean(true);
  private final String service;
  /** java.util.logging holds loggers weakly: a configured logger nobody references is collected with its handler. */
  private final List<Logger> configured;

  private FunctionLogging(String service, List<Logger> configured) {
    this.service = service;
    this.configured = configured;
  }

  /** Once per JVM: a later call (another handler instance in a test JVM) replaces the handler, never adds one. */
  public static FunctionLogging install(Map<String, String> environment, String service) {
    Level own = level(environment.getOrDefault(FunctionEnvironment.LOG_LEVEL, "INFO"));
    return new FunctionLogging(service, List.of(configure(Logger.getLogger("com.acme.fulfil"), own),
        configure(Logger.getLogger("software.amazon"), Level.WARNING)));
  }

  /** The invocation's log keys, on this thread until the scope closes; records get them by {@link #carryingKeys}. */
  public InvocationScope invocation(Context context) {
    MDC.put("function_request_id", context.getAwsRequestId());
    MDC.put("coldStart", Boolean.toString(coldStart.getAndSet(false)));
    MDC.put("functionName", context.getFunctionName());
    MDC.put("functionVersion", context.getFunctionVersion());
    MDC.put("functionArn", context.getInvokedFunctionArn());
    MDC.put("functionMemorySize", Integer.toString(context.getMemoryLimitInMB()));
    MDC.put("service", service);
    return MDC::clear;
  }

  /** {@code work} with this thread's log keys, dropped when it is done so that a pooled thread starts clean. */
  public static <T> Callable<T> carryingKeys(Callable<T> work) {
    Map<String, String> keys = Objects.requireNonNullElse(MDC.getCopyOfContextMap(), Map.of());
    return () -> {
      MDC.setContextMap(keys);
      try {
        return work.call();
      } finally {
        MDC.clear();
      }
    };
  }

  /** The invocation's logging context; closing it clears the thread's keys. */
  @FunctionalInterface
  public interface InvocationScope extends AutoCloseable {
    @Override
    void close();
  }

  private static Logger configure(Logger logger, Level level) {
    Arrays.stream(logger.getHandlers())
        .filter(existing -> existing.getClass().getName().equals(StdoutHandler.class.getName()))
        .forEach(logger::removeHandler);
    StdoutHandler handler = new StdoutHandler();
    handler.setFormatter(new JsonLogFormatter());
    logger.addHandler(handler);
    logger.setUseParentHandlers(false);
    logger.setLevel(level);
    return logger;
  }

  static Level level(String name) {
    return switch (name.strip().toUpperCase(Locale.ROOT)) {
      case "TRACE" -> Level.FINEST;
      case "DEBUG" -> Level.FINE;
      case "WARN", "WARNING" -> Level.WARNING;
      case "ERROR" -> Level.SEVERE;
      default -> Level.INFO;
    };
  }

  /** Each line in one write to the standard output of the moment (Lambda's runtime replaces it). */
  private static final class StdoutHandler extends Handler {
    @Override
    public void publish(LogRecord record) {
      if (isLoggable(record)) {
        PrintStream out = System.out;
        out.print(getFormatter().format(record));
        out.flush();
      }
    }

    @Override
    public void flush() {
      System.out.flush();
    }

    @Override
    public void close() {
      flush();
    }
  }
}
