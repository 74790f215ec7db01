package com.acme.fulfil.local.scenario;

import com.acme.fulfil.contract.alarms.AlarmPage;
import com.acme.fulfil.contract.oncall.RunbookSections;
import com.acme.fulfil.local.TimeScale;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** One alarm going into ALARM, or back to OK, as {@code --serve} plays it, at a local time since the stack started. */
public record PageEvent(AlarmPage page, State state, Duration at) {
  public enum State { ALARM, OK }

  /**
   * The lines {@code --serve} prints: a page tells the alarm, when, what it means, its first command, its
   * section and how it stands on the local stack; an OK tells the alarm and when.
   */
  public List<String> lines(TimeScale scale) {
    String head = String.format(Locale.ROOT, "%-6s %s at %s", state, page.alarm(), Durations.both(at, scale));
    if (state == State.OK) {
      return List.of(head);
    }
    return List.of(head + ": " + page.meaning(),
        "       first: " + page.firstCommand() + "; then " + RunbookSections.see(page.section()),
        "       on the local stack: " + LocalStandIn.of(page.alarm()).onTheLocalStack());
  }
}
