package com.acme.fulfil.local.esm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Hands the tests each settled invocation in order, and waits for the next one with a generous limit. */
final class RecordingListener implements MappingListener {
  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private final BlockingQueue<Invocation> settled = new LinkedBlockingQueue<>();

  @Override
  public void settled(Invocation invocation) {
    settled.add(invocation);
  }

  Invocation next() throws InterruptedException {
    Invocation invocation = settled.poll(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    if (invocation == null) {
      throw new AssertionError("no invocation settled within " + PATIENCE);
    }
    return invocation;
  }

  List<Invocation> next(int count) throws InterruptedException {
    List<Invocation> invocations = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      invocations.add(next());
    }
    return invocations;
  }
}
