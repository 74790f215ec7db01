package com.acme.fulfil.order;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** The delivery speed the customer paid for; the same words in the order message and the partner request. */
public enum Service {
  STANDARD("standard"),
  EXPRESS("express");

  private final String json;

  Service(String json) {
    this.json = json;
  }

  @JsonValue
  public String json() {
    return json;
  }

  static Optional<Service> fromJson(String value) {
    for (Service service : values()) {
      if (service.json.equals(value)) {
        return Optional.of(service);
      }
    }
    return Optional.empty();
  }
}
