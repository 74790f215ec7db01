package com.acme.fulfil.sim;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Per-request reactions a test queues up; the partner's normal service answers everything else.
 *
 * <p>A POST first looks for a rule for its {@code order_id}, then for a general POST rule, and a
 * lookup likewise; rules are used in the order they were added, each for its number of requests.
 * Rules for one order leave tests of other orders alone, so those tests can share a partner and run
 * side by side. Calls chain:
 * {@code script.nextPosts(2, unavailable()).nextPosts(1, rateLimited(7))} answers 503, 503, 429,
 * then books normally. Requests refused before scripting (outage, wrong key, malformed body) use
 * up nothing.
 */
public final class PartnerScript {

  private final Deque<Rule<Reaction>> posts = new ArrayDeque<>();
  private final Deque<Rule<Reaction.Fault>> lookups = new ArrayDeque<>();
  private final Map<String, Deque<Rule<Reaction>>> postsByOrder = new HashMap<>();
  private final Map<String, Deque<Rule<Reaction.Fault>>> lookupsByOrder = new HashMap<>();

  PartnerScript() {}

  /** The next {@code times} POSTs, whatever their order, get {@code reaction}. */
  public synchronized PartnerScript nextPosts(int times, Reaction reaction) {
    posts.add(Rule.limited(times, reaction));
    return this;
  }

  /** The next {@code times} lookups (GET) get {@code fault}. */
  public synchronized PartnerScript nextLookups(int times, Reaction.Fault fault) {
    lookups.add(Rule.limited(times, fault));
    return this;
  }

  /** The next {@code times} lookups of {@code orderId} get {@code fault}. */
  public synchronized PartnerScript nextLookupsFor(String orderId, int times, Reaction.Fault fault) {
    rulesFor(lookupsByOrder, orderId).add(Rule.limited(times, fault));
    return this;
  }

  /** Every POST for {@code orderId} gets {@code reaction}, until {@link #clear()}. */
  public synchronized PartnerScript forOrder(String orderId, Reaction reaction) {
    rulesFor(postsByOrder, orderId).add(Rule.always(reaction));
    return this;
  }

  /** The next {@code times} POSTs for {@code orderId} get {@code reaction}. */
  public synchronized PartnerScript forOrder(String orderId, int times, Reaction reaction) {
    rulesFor(postsByOrder, orderId).add(Rule.limited(times, reaction));
    return this;
  }

  /** Forgets every rule not yet used up. */
  public synchronized void clear() {
    posts.clear();
    lookups.clear();
    postsByOrder.clear();
    lookupsByOrder.clear();
  }

  synchronized Optional<Reaction> takeForPost(String orderId) {
    return take(postsByOrder.getOrDefault(orderId, new ArrayDeque<>())).or(() -> take(posts));
  }

  synchronized Optional<Reaction.Fault> takeForLookup(Optional<String> orderId) {
    return orderId.flatMap(id -> take(lookupsByOrder.getOrDefault(id, new ArrayDeque<>()))).or(() -> take(lookups));
  }

  private static <R extends Reaction> Deque<Rule<R>> rulesFor(Map<String, Deque<Rule<R>>> byOrder, String orderId) {
    Objects.requireNonNull(orderId, "orderId");
    return byOrder.computeIfAbsent(orderId, id -> new ArrayDeque<>());
  }

  private static <R extends Reaction> Optional<R> take(Deque<Rule<R>> rules) {
    Rule<R> rule = rules.peekFirst();
    if (rule == null) {
      return Optional.empty();
    }
    if (!rule.forever && --rule.remaining == 0) {
      rules.removeFirst();
    }
    return Optional.of(rule.reaction);
  }

  private static final class Rule<R extends Reaction> {
    private final R reaction;
    private final boolean forever;
    private int remaining;

    private Rule(R reaction, boolean forever, int remaining) {
      this.reaction = Objects.requireNonNull(reaction, "reaction");
      this.forever = forever;
      this.remaining = remaining;
    }

    static <R extends Reaction> Rule<R> limited(int times, R reaction) {
      if (times < 1) {
        throw new IllegalArgumentException("a scripted reaction applies to at least one request, got " + times);
      }
      return new Rule<>(reaction, false, times);
    }

    static <R extends Reaction> Rule<R> always(R reaction) {
      return new Rule<>(reaction, true, 0);
    }
  }
}
