package com.acme.fulfil.local.scenario;

import com.acme.fulfil.contract.alarms.AlarmPage;
import com.acme.fulfil.local.alarm.AlarmOutcome;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The stack's alarms as they change while {@code --serve} runs: each time the outcomes are evaluated anew,
 * every firing not yet told is told, as it fires and as it clears. An alarm {@code --serve} cannot play is
 * never told (it says so at start, with why).
 */
final class LivePages {
  private final Supplier<List<AlarmOutcome>> outcomes;
  private final Consumer<PageEvent> pages;
  /** Per alarm, how many of its firings were told as fired, and how many as cleared. */
  private final Map<String, Integer> toldFired = new HashMap<>();
  private final Map<String, Integer> toldCleared = new HashMap<>();

  LivePages(Supplier<List<AlarmOutcome>> outcomes, Consumer<PageEvent> pages) {
    this.outcomes = outcomes;
    this.pages = pages;
  }

  /** Evaluates the alarms on what was sampled so far and tells what changed since the last time. */
  synchronized void evaluate() {
    for (AlarmOutcome outcome : outcomes.get()) {
      if (LocalStandIn.of(outcome.name()).notPlayed().isPresent() || outcome.notApplicable().isPresent()) {
        continue;
      }
      AlarmPage page = AlarmPage.of(outcome.name());
      List<AlarmOutcome.Firing> firings = outcome.firings();
      // A firing, once told, keeps its place: the alarms are evaluated on a history that only grows.
      for (int i = toldFired.getOrDefault(page.alarm(), 0); i < firings.size(); i++) {
        pages.accept(new PageEvent(page, PageEvent.State.ALARM, firings.get(i).firedAt()));
        toldFired.put(page.alarm(), i + 1);
      }
      for (int i = toldCleared.getOrDefault(page.alarm(), 0); i < firings.size(); i++) {
        if (firings.get(i).clearedAt().isEmpty()) {
          break;
        }
        pages.accept(new PageEvent(page, PageEvent.State.OK, firings.get(i).clearedAt().get()));
        toldCleared.put(page.alarm(), i + 1);
      }
    }
  }

}
