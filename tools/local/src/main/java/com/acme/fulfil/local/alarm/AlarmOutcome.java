package com.acme.fulfil.local.alarm;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One alarm over one configuration's run: when it went into ALARM and when it left it (local times, at
 * the end of the period that decided), or why it could not stand on that configuration at all.
 */
public record AlarmOutcome(String name, double threshold, Optional<String> notApplicable, List<Firing> firings) {

  public AlarmOutcome {
    firings = List.copyOf(firings);
  }

  /** In ALARM from {@code firedAt}, until {@code clearedAt} if the run saw it clear. */
  public record Firing(Duration firedAt, Optional<Duration> clearedAt) {}

  static AlarmOutcome notApplicable(String name, double threshold, String why) {
    return new AlarmOutcome(name, threshold, Optional.of(why), List.of());
  }

  public boolean fired() {
    return !firings.isEmpty();
  }
}
