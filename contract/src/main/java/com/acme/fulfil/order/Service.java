package com.acme.fulfil.order;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The delivery speed the customer paid for; the same words in the order message and the partner request. */
public enum Service {
  STANDARD,
  EXPRESS;

  @JsonValue
  public String json() {
    return name().toLowerCase(Locale.ROOT);
  }

  static Optional<Service> fromJson(String value) {
    return Arrays.stream(values()).filter(service -> service.json().equals(value)).findFirst();
  }
}
