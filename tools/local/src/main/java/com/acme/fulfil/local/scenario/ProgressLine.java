package com.acme.fulfil.local.scenario;

import com.acme.fulfil.local.TimeScale;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/** The one line a run keeps rewriting: per configuration, sent / booked / booked twice+ / DLQ. */
final class ProgressLine {
  private ProgressLine() {}

  static String format(List<DeploymentRun> runs, int orders, Duration elapsed, TimeScale scale) {
    String perRun = runs.stream().map(run -> {
      DeploymentRun.Progress p = run.progress();
      return run.deployment().name() + ": sent " + p.sent() + "/" + orders + ", booked " + p.booked()
          + ", twice+ " + p.bookedTwiceOrMore() + p.dlq().map(n -> ", DLQ " + n).orElse("");
    }).collect(Collectors.joining("  |  "));
    return String.format("%5.1f s (%s real)  %s", elapsed.toMillis() / 1000.0,
        Durations.real(elapsed, scale), perRun);
  }
}
