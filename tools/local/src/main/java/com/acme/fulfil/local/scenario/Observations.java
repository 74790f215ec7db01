package com.acme.fulfil.local.scenario;

import com.acme.fulfil.local.esm.Delivery;
import com.acme.fulfil.local.esm.Invocation;
import com.acme.fulfil.local.esm.MappingListener;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** What the event source mapping did with each message: how often it was received, and whether it was deleted. */
final class Observations implements MappingListener {
  private final Map<String, Integer> receivesByMessage = new ConcurrentHashMap<>();
  private final Set<String> deleted = ConcurrentHashMap.newKeySet();
  private final AtomicInteger staleDeletes = new AtomicInteger();
  private final AtomicInteger timedOut = new AtomicInteger();
  private final AtomicInteger functionErrors = new AtomicInteger();
  /** Every receive and every delete, as SQS's NumberOfMessagesReceived and NumberOfMessagesDeleted count them. */
  private final AtomicLong receivesTotal = new AtomicLong();
  private final AtomicLong deletesTotal = new AtomicLong();

  @Override
  public void received(String requestId, List<Delivery> deliveries) {
    deliveries.forEach(d -> receivesByMessage.merge(d.messageId(), d.receiveCount(), Math::max));
    receivesTotal.addAndGet(deliveries.size());
  }

  @Override
  public void settled(Invocation invocation) {
    deleted.addAll(invocation.deleted());
    deletesTotal.addAndGet(invocation.deleted().size());
    staleDeletes.addAndGet(invocation.staleReceipts().size());
    switch (invocation.outcome()) {
      case TIMED_OUT -> timedOut.incrementAndGet();
      case FUNCTION_ERROR, INVALID_RESPONSE -> functionErrors.incrementAndGet();
      case RETURNED -> { }
    }
  }

  int receives(String messageId) {
    return receivesByMessage.getOrDefault(messageId, 0);
  }

  boolean deleted(String messageId) {
    return deleted.contains(messageId);
  }

  long receivesTotal() {
    return receivesTotal.get();
  }

  long deletesTotal() {
    return deletesTotal.get();
  }

  int staleDeletes() {
    return staleDeletes.get();
  }

  int timedOut() {
    return timedOut.get();
  }

  int functionErrors() {
    return functionErrors.get();
  }
}
