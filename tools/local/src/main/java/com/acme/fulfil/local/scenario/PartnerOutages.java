package com.acme.fulfil.local.scenario;

import com.acme.fulfil.sim.SimulatedPartner;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Takes one partner down as a day's {@link PartnerDay#outages()} say, and remembers when it was down. */
final class PartnerOutages {
  private final List<Downtime> downtimes = new CopyOnWriteArrayList<>();

  /** When the partner answered 503 to everything. */
  record Downtime(Instant from, Instant until) {}

  /** Starts the day's outages, counted from now, on a thread of their own. */
  void start(SimulatedPartner partner, List<PartnerDay.Outage> outages) {
    Instant event = Instant.now();
    Thread.ofVirtual().name("partner-outages").start(() -> {
      for (PartnerDay.Outage outage : outages) {
        Duration wait = Duration.between(Instant.now(), event.plus(outage.after()));
        try {
          if (wait.isPositive()) {
            Thread.sleep(wait);
          }
        } catch (InterruptedException e) {
          return;
        }
        Instant from = Instant.now();
        partner.outage(outage.length());
        downtimes.add(new Downtime(from, from.plus(outage.length())));
      }
    });
  }

  /** Every one of the day's {@code planned} downtimes has begun and ended. */
  boolean over(int planned) {
    return downtimes.size() == planned && downtimes.stream().allMatch(down -> down.until().isBefore(Instant.now()));
  }

  List<Downtime> downtimes() {
    return List.copyOf(downtimes);
  }
}
