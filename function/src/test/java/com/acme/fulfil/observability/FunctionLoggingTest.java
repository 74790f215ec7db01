package com.acme.fulfil.observability;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class FunctionLoggingTest {

  @Test
  void functionLoggersKeepTheirJsonHandlerAndLevelThroughAGarbageCollection() {
    FunctionLogging logging = FunctionLogging.install(Map.of(FunctionEnvironment.LOG_LEVEL, "DEBUG"), "fulfil-order");

    // java.util.logging holds loggers weakly: an unreferenced one would come back without its handler.
    System.gc();

    Logger own = Logger.getLogger("com.acme.fulfil");
    assertThat(own.getLevel()).isEqualTo(Level.FINE);
    assertThat(own.getUseParentHandlers()).isFalse();
    assertThat(Arrays.stream(own.getHandlers()).map(h -> h.getFormatter()))
        .singleElement().isInstanceOf(JsonLogFormatter.class);
    assertThat(Logger.getLogger("software.amazon").getLevel()).isEqualTo(Level.WARNING);
    assertThat(logging).isNotNull();
  }

  @Test
  void aPooledRecordThreadLogsWithTheKeysOfTheInvocationThatHandedItTheRecordAndNoLeftovers() throws Exception {
    ExecutorService recordThread = Executors.newSingleThreadExecutor();
    try {
      List<Map<String, String>> seen = new ArrayList<>();
      for (String request : List.of("req-1", "req-2")) {
        MDC.put("function_request_id", request);
        Callable<Map<String, String>> record = () -> {
          Map<String, String> keys = MDC.getCopyOfContextMap();
          MDC.put("order_id", "ORD-" + request);
          return keys;
        };
        seen.add(recordThread.submit(FunctionLogging.carryingKeys(record)).get());
        MDC.clear();
      }

      assertThat(seen).containsExactly(Map.of("function_request_id", "req-1"), Map.of("function_request_id", "req-2"));
      assertThat(recordThread.submit(MDC::getCopyOfContextMap).get()).isNullOrEmpty();
    } finally {
      recordThread.shutdownNow();
    }
  }
}
