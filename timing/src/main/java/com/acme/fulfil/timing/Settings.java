package com.acme.fulfil.timing;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/** Typed reads of optional settings (CDK context values arrive as strings or numbers-as-strings). */
final class Settings {
  private final Function<String, String> lookup;

  Settings(Function<String, String> lookup) {
    this.lookup = lookup;
  }

  Optional<Integer> integer(String name) {
    return raw(name).map(v -> {
      try {
        return Integer.valueOf(v);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + " must be a whole number, got '" + v + "'.", e);
      }
    });
  }

  Optional<Duration> seconds(String name) {
    return integer(name).map(Duration::ofSeconds);
  }

  Optional<Duration> days(String name) {
    return integer(name).map(Duration::ofDays);
  }

  private Optional<String> raw(String name) {
    return Optional.ofNullable(lookup.apply(name)).map(String::strip).filter(v -> !v.isEmpty());
  }
}
