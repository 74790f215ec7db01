package com.acme.fulfil.contract.settings;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Typed reads of optional settings (CDK context values arrive as strings or numbers-as-strings). The
 * timing budget and the CDK app's other settings read through this one class, so a bad value gets
 * the same sentence wherever it is read.
 */
public final class Settings {
  private final Function<String, String> lookup;

  public Settings(Function<String, String> lookup) {
    this.lookup = lookup;
  }

  public Optional<Integer> integer(String name) {
    return text(name).map(v -> {
      try {
        return Integer.valueOf(v);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + " must be a whole number, got '" + v + "'.", e);
      }
    });
  }

  public Optional<Duration> seconds(String name) {
    return integer(name).map(Duration::ofSeconds);
  }

  public Optional<Duration> days(String name) {
    return integer(name).map(Duration::ofDays);
  }

  /** A switch: {@code true} or {@code false} (cdk.json's JSON booleans arrive as these words). */
  public Optional<Boolean> flag(String name) {
    return text(name).map(v -> switch (v.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException(name + " must be true or false, got '" + v + "'.");
    });
  }

  /** The setting with surrounding blanks removed; a blank setting counts as not set. */
  public Optional<String> text(String name) {
    return Optional.ofNullable(lookup.apply(name)).map(String::strip).filter(v -> !v.isEmpty());
  }
}
