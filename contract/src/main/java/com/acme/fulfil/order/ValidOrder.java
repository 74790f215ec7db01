package com.acme.fulfil.order;

import java.util.Objects;

/** A body that met every rule of the order message contract. */
public record ValidOrder(OrderMessage order) implements ParsedOrder {

  public ValidOrder {
    Objects.requireNonNull(order, "order");
  }
}
