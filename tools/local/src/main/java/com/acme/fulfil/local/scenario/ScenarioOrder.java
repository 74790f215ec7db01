package com.acme.fulfil.local.scenario;

import java.util.Objects;

/** One message the checkout service sends, and what kind of message it is (so the report can say why it ended where it did). */
public record ScenarioOrder(String orderId, String body, Kind kind) {

  public enum Kind {
    GOOD("good order"),
    MALFORMED("not JSON (poison)"),
    BREAKS_CONTRACT("breaks the order contract (poison)"),
    PARTNER_REJECTS("address the partner rejects with 422");

    private final String reason;

    Kind(String reason) {
      this.reason = reason;
    }

    /** Why a message of this kind cannot be booked, as the report prints it. */
    public String reason() {
      return reason;
    }

    /** A message that can never be booked, however often it is retried. */
    public boolean neverBookable() {
      return this != GOOD;
    }
  }

  public ScenarioOrder {
    Objects.requireNonNull(orderId, "orderId");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(kind, "kind");
  }
}
