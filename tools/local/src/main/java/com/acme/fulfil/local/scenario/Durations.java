package com.acme.fulfil.local.scenario;

import com.acme.fulfil.local.TimeScale;
import java.time.Duration;
import java.util.Locale;

/** How the report writes a local duration and its real-world equivalent. */
public final class Durations {
  private Durations() {}

  static String local(Duration local) {
    return String.format(Locale.ROOT, "%.1f s", local.toMillis() / 1000.0);
  }

  /** "0.21 s": local seconds to the hundredth, for what is often a fraction of a second (the function's own work). */
  static String precise(Duration duration) {
    return String.format(Locale.ROOT, "%.2f s", duration.toMillis() / 1000.0);
  }

  static String real(Duration local, TimeScale scale) {
    long seconds = scale.toReal(local).toSeconds();
    if (seconds < 120) {
      return seconds + " s";
    }
    if (seconds < 7200) {
      return String.format(Locale.ROOT, "%.1f min", seconds / 60.0);
    }
    return String.format(Locale.ROOT, "%.1f h", seconds / 3600.0);
  }

  /** "1.4 s (42 s)": local first, the real-world equivalent in brackets. */
  public static String both(Duration local, TimeScale scale) {
    return local(local) + " (" + real(local, scale) + ")";
  }

  static double seconds(Duration duration) {
    return duration.toMillis() / 1000.0;
  }
}
