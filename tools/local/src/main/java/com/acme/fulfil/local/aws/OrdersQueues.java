package com.acme.fulfil.local.aws;

import java.util.Objects;
import java.util.Optional;

/** The orders queue and, when the configuration has one, the dead-letter queue its redrive targets. */
public record OrdersQueues(QueueRef source, Optional<QueueRef> deadLetter, QueueSettings settings) {
  public OrdersQueues {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(deadLetter, "deadLetter");
    Objects.requireNonNull(settings, "settings");
  }
}
