package com.acme.fulfil.config;

import java.time.Duration;

/**
 * Where each order's tries are recorded: the table, the function's name (the first part of every order's key) and how
 * long a record is kept.
 */
public record IdempotencyTable(String name, String functionName, Duration ttl) {
  public IdempotencyTable {
    Parts.named("name", name);
    Parts.named("functionName", functionName);
    Parts.positive("ttl", ttl);
  }
}
