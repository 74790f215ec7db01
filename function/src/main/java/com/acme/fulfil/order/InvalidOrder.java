package com.acme.fulfil.order;

import java.util.Objects;

/**
 * A body that will never become valid (a poison message).
 *
 * @param orderId the message's order id when that field itself was valid, so it can be logged; else
 *     null
 * @param reason every broken rule, joined with "; ", naming field paths and rules only: it holds no
 *     address value and no part of the body, so it is safe to log
 */
public record InvalidOrder(String orderId, String reason) implements ParsedOrder {

  public InvalidOrder {
    Objects.requireNonNull(reason, "reason");
  }
}
