package com.acme.fulfil.local.scenario;

import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.alarm.AlarmOutcome;
import java.util.List;

/** How the text report shows the stack's alarms: when each fired, local time first and the real world's in brackets. */
final class AlarmText {
  private final TimeScale scale;

  AlarmText(TimeScale scale) {
    this.scale = scale;
  }

  /** The alarm's cell: quiet, or its first firing (and clearing) and how many more followed. */
  String cell(AlarmOutcome alarm) {
    if (alarm.notApplicable().isPresent()) {
      return "- (" + alarm.notApplicable().get() + ")";
    }
    if (!alarm.fired()) {
      return "quiet";
    }
    AlarmOutcome.Firing first = alarm.firings().getFirst();
    int more = alarm.firings().size() - 1;
    return "fired " + Durations.both(first.firedAt(), scale)
        + first.clearedAt().map(at -> ", OK " + Durations.local(at)).orElse("")
        + (more > 0 ? ", " + more + " more" : "");
  }

  /** For the verdict: which alarms paged, by name. */
  static String paged(List<AlarmOutcome> alarms) {
    List<String> fired = alarms.stream().filter(AlarmOutcome::fired).map(AlarmOutcome::name).toList();
    return fired.isEmpty() ? "no alarm fired" : "alarms fired: " + String.join(", ", fired);
  }
}
