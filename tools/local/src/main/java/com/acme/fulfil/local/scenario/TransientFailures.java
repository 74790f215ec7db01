package com.acme.fulfil.local.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Counts a function's failed tries by cause from its log lines, as CloudWatch Logs Insights would: the
 * JSON line each record's outcome is logged on ({@code logger} the fulfilment, {@code message} its
 * outcome). Its EMF metrics count transient failures, not why.
 */
final class TransientFailures implements Consumer<String> {
  private static final String FULFILMENT_LOGGER = "com.acme.fulfil.fulfilment.OrderFulfilment";
  private static final String TRANSIENT = "transient failure, the message returns ";
  private static final String HELD = "another invocation is booking this order now";

  private final ObjectMapper json = new ObjectMapper();
  private final Map<FailureCause, AtomicInteger> counts = new ConcurrentHashMap<>();

  @Override
  public void accept(String line) {
    if (!line.startsWith("{") || !line.contains(FULFILMENT_LOGGER)) {
      return;
    }
    JsonNode entry;
    try {
      entry = json.readTree(line);
    } catch (IOException e) {
      return; // not a log line of the function's: EMF, or output of a library
    }
    if (!FULFILMENT_LOGGER.equals(entry.path("logger").asText())) {
      return;
    }
    String message = entry.path("message").asText();
    if (message.startsWith(TRANSIENT)) {
      count(FailureCause.ofTransientFailure(message.substring(TRANSIENT.length())));
    } else if (message.startsWith(HELD)) {
      count(FailureCause.HELD_BY_ANOTHER_TRY);
    }
  }

  private void count(FailureCause cause) {
    counts.computeIfAbsent(cause, c -> new AtomicInteger()).incrementAndGet();
  }

  /** The causes seen so far, in {@link FailureCause}'s order. */
  Map<FailureCause, Integer> byCause() {
    Map<FailureCause, Integer> byCause = new EnumMap<>(FailureCause.class);
    counts.forEach((cause, n) -> byCause.put(cause, n.get()));
    return byCause;
  }
}
