package com.acme.fulfil.system.harness;

import com.acme.fulfil.local.esm.Delivery;
import com.acme.fulfil.local.esm.Invocation;
import com.acme.fulfil.local.esm.MappingListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Every invocation the event source mapping made, when it started and ended, and what came of it. */
public final class InvocationLog implements MappingListener {
  private final Map<String, Long> startedNanos = new HashMap<>();
  private final List<Run> runs = new ArrayList<>();
  private final Map<String, Integer> receives = new HashMap<>();
  private final Set<String> deleted = new HashSet<>();

  /** One invocation from receive to settlement, on the {@code System.nanoTime()} clock. */
  public record Run(Invocation invocation, long startedNanos, long settledNanos) {
    public boolean handled(String messageId) {
      return invocation.deliveries().stream().anyMatch(d -> d.messageId().equals(messageId));
    }

    boolean overlaps(Run other) {
      return startedNanos < other.settledNanos && other.startedNanos < settledNanos;
    }
  }

  @Override
  public synchronized void received(String requestId, List<Delivery> deliveries) {
    startedNanos.put(requestId, System.nanoTime());
    deliveries.forEach(d -> receives.merge(d.messageId(), 1, Integer::sum));
  }

  @Override
  public synchronized void settled(Invocation invocation) {
    long started = startedNanos.remove(invocation.requestId());
    runs.add(new Run(invocation, started, System.nanoTime()));
    deleted.addAll(invocation.deleted());
  }

  /** How many times the mapping handed this message to the function. */
  public synchronized int receives(String messageId) {
    return receives.getOrDefault(messageId, 0);
  }

  public synchronized boolean deleted(String messageId) {
    return deleted.contains(messageId);
  }

  public synchronized boolean deletedAll(Iterable<String> messageIds) {
    for (String id : messageIds) {
      if (!deleted.contains(id)) {
        return false;
      }
    }
    return true;
  }

  public synchronized List<Run> runs() {
    return List.copyOf(runs);
  }

  /** Invocations that ended as {@code outcome}. */
  public synchronized long count(Invocation.Outcome outcome) {
    return runs.stream().filter(run -> run.invocation().outcome() == outcome).count();
  }

  /** Invocations in which the function listed this message in batchItemFailures. */
  public synchronized long reportedFailures(String messageId) {
    return runs.stream().filter(run -> run.invocation().reportedFailures().contains(messageId)).count();
  }

  /**
   * Invocations that held this message and ended without booking it: it listed the message in
   * batchItemFailures, or Lambda killed it at its timeout (which a loaded machine makes more likely).
   */
  public synchronized long unsuccessfulTries(String messageId) {
    return runs.stream().filter(run -> run.invocation().reportedFailures().contains(messageId)
        || run.handled(messageId) && run.invocation().outcome() == Invocation.Outcome.TIMED_OUT).count();
  }

  /**
   * Invocations that held this message and Lambda killed at the function timeout: they ran out of time
   * before they could settle it, so they judged nothing (a cold environment on a loaded machine).
   */
  public synchronized long killedAtTimeout(String messageId) {
    return runs.stream().filter(run -> run.handled(messageId) && run.invocation().outcome() == Invocation.Outcome.TIMED_OUT)
        .count();
  }

  /** The longest invocation that held this message, from receive to settlement. */
  public synchronized Duration longestRun(String messageId) {
    return runs.stream().filter(run -> run.handled(messageId)).map(run -> Duration.ofNanos(run.settledNanos() - run.startedNanos()))
        .max(Duration::compareTo).orElse(Duration.ZERO);
  }

  /** Two invocations held this message at the same time: the duplicate delivery really ran concurrently. */
  public synchronized boolean ranConcurrently(String messageId) {
    List<Run> withMessage = runs.stream().filter(run -> run.handled(messageId)).toList();
    for (int i = 0; i < withMessage.size(); i++) {
      for (int j = i + 1; j < withMessage.size(); j++) {
        if (withMessage.get(i).overlaps(withMessage.get(j))) {
          return true;
        }
      }
    }
    return false;
  }

  /** The invocations still running: received, not yet settled. */
  public synchronized int running() {
    return startedNanos.size();
  }
}
