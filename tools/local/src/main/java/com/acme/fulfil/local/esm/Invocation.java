package com.acme.fulfil.local.esm;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What one invocation of the function came to, as the mapping saw it.
 *
 * @param deleted the messages the mapping deleted (SQS confirmed)
 * @param reportedFailures the messages the function listed in batchItemFailures
 * @param staleReceipts deletes SQS refused because the receipt handle was no longer current: the
 *     message had become visible again and been received by someone else while this invocation ran
 *     (the incident's duplicate, seen from the first invocation). AWS accepts such a delete silently.
 * @param error why the invocation failed as a whole, if it did
 */
public record Invocation(
    String requestId,
    List<Delivery> deliveries,
    Outcome outcome,
    Set<String> deleted,
    Set<String> reportedFailures,
    Set<String> staleReceipts,
    Optional<String> error,
    Duration duration) {

  public enum Outcome {
    /** Returned a response: every record not in batchItemFailures was deleted. */
    RETURNED,
    /** Threw: nothing deleted, every record comes back after its visibility timeout. */
    FUNCTION_ERROR,
    /** Outlived the function timeout: abandoned, nothing deleted. */
    TIMED_OUT,
    /**
     * Returned batchItemFailures naming a record that is not in the batch (or no id at all): Lambda
     * treats that as a failure of the whole batch, so nothing deleted.
     */
    INVALID_RESPONSE
  }

  public Invocation {
    deliveries = List.copyOf(deliveries);
    deleted = Set.copyOf(deleted);
    reportedFailures = Set.copyOf(reportedFailures);
    staleReceipts = Set.copyOf(staleReceipts);
  }
}
