package com.acme.fulfil.local.esm;

import java.util.List;

/**
 * What the mapping tells the scenario and the tests as it works. Called from the mapping's threads,
 * so implementations must be thread-safe and quick.
 */
public interface MappingListener {
  MappingListener NONE = new MappingListener() {};

  /** A batch was received and is about to be handed to the function. */
  default void received(String requestId, List<Delivery> deliveries) {}

  /** An invocation finished, failed or was abandoned, and the mapping acted on it. */
  default void settled(Invocation invocation) {}
}
