package com.acme.fulfil.bench;

/**
 * How many invocations an SQS event source mapping in standard mode lets run, from the moment its queue
 * stops being quiet: AWS starts with five concurrent invocations and adds up to 300 a minute, to the
 * mapping's maximum concurrency (or 1,250 without one). Modelled as a step each whole minute, the
 * fastest AWS documents.
 *
 * @param start invocations at once when the queue becomes busy
 * @param perMinute invocations added each minute it stays busy
 */
record ScaleUp(int start, int perMinute) {
  static final ScaleUp STANDARD = new ScaleUp(5, 300);
  /** Every invocation available at once: what the model assumed before, for comparison. */
  static final ScaleUp AT_ONCE = new ScaleUp(Integer.MAX_VALUE, 0);

  /** Invocations allowed {@code busySeconds} after the queue became busy, under {@code cap}. */
  int allowed(double busySeconds, int cap) {
    long steps = (long) Math.floor(busySeconds / 60);
    return (int) Math.min(cap, start + (long) perMinute * steps);
  }

  /** When, in seconds since the queue became busy, the allowance next grows; never once it is at {@code cap}. */
  double nextStep(double busySeconds, int cap) {
    return allowed(busySeconds, cap) >= cap ? Double.MAX_VALUE : (Math.floor(busySeconds / 60) + 1) * 60;
  }

  /** Whole minutes from a quiet queue until {@code cap} invocations may run. */
  int minutesToReach(int cap) {
    return cap <= start ? 0 : (cap - start + perMinute - 1) / perMinute;
  }
}
