package com.acme.fulfil.observability;

import com.acme.fulfil.contract.FunctionEnvironment;
import com.amazonaws.services.lambda.runtime.Context;
import java.io.PrintStream;
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
 * The function's logging: SLF4J (the function's code, the AWS SDK, Powertools) onto java.util.logging,
 * whose lines {@link JsonLogFormatter} writes to standard output, where Lambda hands them to
 * CloudWatch Logs. Chosen over Log4j 2 for the cold start and the artifact (docs/performance.md):
 * java.util.logging is in the JDK and starts in milliseconds.
 *
 * <p>{@code FULFIL_LOG_LEVEL} (TRACE, DEBUG, INFO, WARN, ERROR; default INFO) sets the function's own
 * loggers; libraries log warnings and errors only.
 */
public final class FunctionLogging {
  /** Loggers whose lines are the function's: its own code, and the SDK, Powertools and EMF it calls. */
  private static final String OWN = "com.acme.fulfil";
  private static final String LIBRARIES = "software.amazon";
  private static final String REQUEST_ID = "function_request_id";

  private final AtomicBoolean coldStart = new AtomicBoolean(true);
  private final String service;
  /** java.util.logging holds loggers weakly: a configured logger nobody references is collected with its handler. */
  private final List<Logger> configured;

  private FunctionLogging(String service, List<Logger> configured) {
    this.service = service;
    this.configured = configured;
  }

  /**
   * Routes the function's loggers to JSON lines on standard output, once per JVM: a later call (another
   * handler instance in a test JVM) replaces the handler rather than adding a second one.
   */
  public static FunctionLogging install(Map<String, String> environment, String service) {
    Level own = level(environment.getOrDefault(FunctionEnvironment.LOG_LEVEL, "INFO"));
    return new FunctionLogging(service, List.of(
        configure(Logger.getLogger(OWN), own),
        configure(Logger.getLogger(LIBRARIES), Level.WARNING)));
  }

  /**
   * Puts the invocation's keys on this thread for every line it logs, and takes them off again when the
   * returned scope closes. Record threads get them through {@link #carryingKeys}.
   */
  public InvocationScope invocation(Context context) {
    MDC.put(REQUEST_ID, context.getAwsRequestId());
    MDC.put("coldStart", Boolean.toString(coldStart.getAndSet(false)));
    MDC.put("functionName", context.getFunctionName());
    MDC.put("functionVersion", context.getFunctionVersion());
    MDC.put("functionArn", context.getInvokedFunctionArn());
    MDC.put("functionMemorySize", Integer.toString(context.getMemoryLimitInMB()));
    MDC.put("service", service);
    return MDC::clear;
  }

  /**
   * {@code work} as it is to run on another thread, with the log keys this thread has now; the other
   * thread drops them, and whatever the work added, once it is done, so that a pooled thread's next
   * record starts clean.
   */
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
    for (Handler existing : logger.getHandlers()) {
      if (existing.getClass().getName().equals(StdoutHandler.class.getName())) {
        logger.removeHandler(existing);
      }
    }
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
