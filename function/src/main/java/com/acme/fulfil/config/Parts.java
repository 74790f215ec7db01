package com.acme.fulfil.config;

import java.time.Duration;
import java.util.Objects;

/** The refusals the configuration's parts share, each naming the part. */
final class Parts {
  private Parts() {}

  static void positive(String part, Duration value) {
    Objects.requireNonNull(value, part);
    if (!value.isPositive()) {
      refuse(part, "must be positive, got " + value);
    }
  }

  static void named(String part, String value) {
    Objects.requireNonNull(value, part);
    if (value.isBlank()) {
      refuse(part, "must not be blank");
    }
  }

  static void refuse(String part, String problem) {
    throw new IllegalArgumentException(part + " " + problem);
  }
}
