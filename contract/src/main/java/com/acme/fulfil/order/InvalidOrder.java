package com.acme.fulfil.order;

import java.util.Objects;

/**
 * A body that will never become valid (a poison message).
 *
 * @param orderId the body's order id when that field itself was valid, else null
 * @param reason every broken rule, joined with "; ": field paths and rules only, no value, so it is safe to log
 */
public record InvalidOrder(String orderId, String reason) implements ParsedOrder {

  public InvalidOrder {
    Objects.requireNonNull(reason, "reason");
  }
}
