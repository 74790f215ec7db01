package com.acme.fulfil.booking;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Runs a model's tries on threads of their own, one step at a time: a try stops at each gate until the
 * model checker lets it through, kills it there, or moves the world on (a late booking lands, time
 * passes...) while it waits. Gates passed by any other thread (the queue's later deliveries) let it
 * through at once.
 */
public final class Interleaving {
  /** Something the world does between two steps of the tries. */
  public record Move(String label, Runnable action) {}

  /** Thrown at a try's gate to kill it there: an Error, so no catch in the function's code can outlive it. */
  public static final class Killed extends Error {
    Killed() {
      super("killed", null, false, false);
    }
  }

  private enum State { RUNNING, WAITING, FINISHED }

  private record Step(String label, String tryName, boolean kill, Runnable move) {}

  private final Chooser choices;
  private final List<String> trace;
  private final Supplier<List<Move>> world;
  private final Predicate<String> pastItsTimeout;
  private final int stepWeight;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<String, State> states = new LinkedHashMap<>();
  private final Map<String, String> waitingAt = new LinkedHashMap<>();
  private final Map<String, Boolean> released = new LinkedHashMap<>();
  private final Map<String, Boolean> killed = new LinkedHashMap<>();
  private final ThreadLocal<String> currentTry = new ThreadLocal<>();
  private int killsLeft;
  /** The one try offered the first choice, where the tries are interchangeable; none: every try is. */
  private String firstMover;

  /**
   * @param kills how many tries the checker may kill at a gate of its choosing (a crash, Lambda's timeout)
   * @param world what the world may do at each step, asked afresh each time
   * @param pastItsTimeout a try whose invocation has timed out: Lambda kills it before its next step
   * @param stepWeight how many times each try's next step is offered among the choices: 1 to explore
   *     every way once, more for random walks that should mostly make progress
   */
  public Interleaving(Chooser choices, List<String> trace, int kills, Supplier<List<Move>> world,
      Predicate<String> pastItsTimeout, int stepWeight) {
    this.choices = choices;
    this.stepWeight = stepWeight;
    this.trace = trace;
    this.killsLeft = kills;
    this.world = world;
    this.pastItsTimeout = pastItsTimeout;
  }

  /**
   * Symmetry reduction: the tries are interchangeable (the same message, the same invocation end, the
   * same code up to their first gate), so every run whose first step or kill is another try's mirrors
   * one whose first is {@code name}'s, and only those are explored.
   */
  public void interchangeable(String name) {
    firstMover = name;
  }

  public void gate(String step) {
    String name = currentTry.get();
    if (name == null) {
      return;
    }
    lock.lock();
    try {
      if (killed.get(name)) {
        throw new Killed();
      }
      states.put(name, State.WAITING);
      waitingAt.put(name, step);
      changed.signalAll();
      while (!released.get(name)) {
        changed.awaitUninterruptibly();
      }
      released.put(name, false);
      states.put(name, State.RUNNING);
      if (killed.get(name)) {
        throw new Killed();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Starts each delivery on its own thread, one at a time up to its first gate, then lets the checker choose. */
  public <D> void run(List<D> deliveries, java.util.function.Function<D, String> nameOf, Consumer<D> deliver)
      throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    for (D delivery : deliveries) {
      String name = nameOf.apply(delivery);
      lock.lock();
      try {
        states.put(name, State.RUNNING);
        released.put(name, false);
        killed.put(name, false);
      } finally {
        lock.unlock();
      }
      threads.add(Thread.ofPlatform().name("try-" + name).start(() -> {
        currentTry.set(name);
        try {
          deliver.accept(delivery);
        } catch (Killed k) {
          trace.add(name + " killed");
        } finally {
          lock.lock();
          try {
            states.put(name, State.FINISHED);
            changed.signalAll();
          } finally {
            lock.unlock();
          }
        }
      }));
      awaitNoneRunning();
    }
    while (true) {
      awaitNoneRunning();
      List<String> waiting = waiting();
      if (waiting.isEmpty()) {
        break;
      }
      List<String> timedOut = waiting.stream().filter(pastItsTimeout).toList();
      if (!timedOut.isEmpty()) {
        timedOut.forEach(name -> trace.add("Lambda kills " + name + " at its timeout, at " + waitingAt.get(name)));
        timedOut.forEach(name -> release(name, true));
        continue;
      }
      List<String> offered = firstMover != null && waiting.contains(firstMover) ? List.of(firstMover) : waiting;
      firstMover = null;
      List<Step> options = new ArrayList<>();
      for (int copy = 0; copy < stepWeight; copy++) {
        offered.forEach(name -> options.add(new Step("step " + name + ": " + waitingAt.get(name), name, false, null)));
      }
      if (killsLeft > 0) {
        offered.forEach(name -> options.add(new Step("kill " + name + " at " + waitingAt.get(name), name, true, null)));
      }
      world.get().forEach(move -> options.add(new Step(move.label(), null, false, move.action())));
      Step step = options.get(choices.choose(options.size()));
      trace.add(step.label());
      if (step.move() != null) {
        step.move().run();
        continue;
      }
      if (step.kill()) {
        killsLeft--;
      }
      release(step.tryName(), step.kill());
    }
    for (Thread thread : threads) {
      thread.join();
    }
  }

  private List<String> waiting() {
    lock.lock();
    try {
      return states.entrySet().stream().filter(e -> e.getValue() == State.WAITING).map(Map.Entry::getKey).toList();
    } finally {
      lock.unlock();
    }
  }

  private void release(String name, boolean kill) {
    lock.lock();
    try {
      killed.put(name, kill);
      released.put(name, true);
      states.put(name, State.RUNNING);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void awaitNoneRunning() {
    lock.lock();
    try {
      while (states.containsValue(State.RUNNING)) {
        changed.awaitUninterruptibly();
      }
    } finally {
      lock.unlock();
    }
  }
}
