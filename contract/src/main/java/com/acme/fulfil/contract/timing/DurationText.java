package com.acme.fulfil.contract.timing;

import java.time.Duration;

/** A duration as the timing rules' sentences write it: whole days, else seconds, else milliseconds. */
final class DurationText {
  private DurationText() {}

  static String show(Duration d) {
    if (d.getNano() != 0) {
      return d.toMillis() + " ms";
    }
    long s = d.toSeconds();
    if (s != 0 && s % 86_400 == 0) {
      return s / 86_400 + " days";
    }
    return s + " s";
  }
}
