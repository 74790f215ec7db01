package com.acme.fulfil.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class FunctionLoggingTest {

  @Test
  void functionLoggersKeepTheirJsonHandlerAndLevelThroughAGarbageCollection() {
    FunctionLogging logging = FunctionLogging.install(Map.of(FunctionLogging.LOG_LEVEL, "DEBUG"), "fulfil-order");

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
}
