package com.acme.fulfil.contract.timing;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * How many orders an hour a deployment books, by Little's law: at most {@code maxConcurrency}
 * invocations run at once, each books {@code batchSize} orders in {@code sequentialRounds} rounds,
 * and a round lasts as long as its slowest record (each a lookup before the booking, then the booking).
 * While a backlog waits every batch is full, so this is the rate a backlog drains at.
 *
 * @param typicalRound the partner's time on a normal day for one round: the slowest of its
 *     {@code min(batchSize, recordConcurrency)} records ({@link PartnerTypicalTime})
 * @param worstCaseOrder the longest the budget lets one order hold an invocation's record slot: the
 *     lookup's timeout plus the partner's worst case; a round of them takes as long as one
 */
public record Capacity(int maxConcurrency, int batchSize, int recordConcurrency, Duration typicalRound,
    Duration worstCaseOrder) {

  /**
   * The backlog alarm fires when more orders wait than the stack books in this long on a normal day: a
   * quarter of an hour of work queued is a page, hours before a message outlives its retry horizon.
   */
  public static final Duration BACKLOG_WINDOW = Duration.ofMinutes(15);
  private static final double SECONDS_AN_HOUR = 3600;
  /** The event source mapping's maximum concurrency accepts 2 to 1,000. */
  static final int MAX_MAPPING_CONCURRENCY = 1000;
  /**
   * Invocations the function reserves beyond the mapping's maximum concurrency: room for a person's test
   * invoke or two, so that it runs beside the mapping instead of throttling it (a throttled batch costs its
   * messages a receive that nothing else counts). More than that is a second consumer, which still throttles
   * and pages.
   */
  public static final int RESERVED_HEADROOM = 2;

  public Capacity {
    if (maxConcurrency < 1 || batchSize < 1 || recordConcurrency < 1) {
      throw new IllegalArgumentException("maxConcurrency, batchSize and recordConcurrency must be at least 1");
    }
    if (!typicalRound.isPositive() || !worstCaseOrder.isPositive()) {
      throw new IllegalArgumentException("the partner's time for an order must be positive");
    }
  }

  /**
   * The capacity on a normal partner day: a round takes the typical slowest of the records it runs side
   * by side, never one order's typical time (a round of ten takes about twice as long as one order).
   */
  public static Capacity onTypicalPartnerDays(int maxConcurrency, int batchSize, int recordConcurrency,
      Duration worstCaseOrder) {
    int sideBySide = Math.min(Math.min(batchSize, recordConcurrency), PartnerTypicalTime.MOST_SIDE_BY_SIDE);
    return new Capacity(maxConcurrency, batchSize, recordConcurrency,
        PartnerTypicalTime.slowestOf(Math.max(1, sideBySide)), worstCaseOrder);
  }

  /**
   * The function's reserved concurrency: the mapping's maximum concurrency and {@link #RESERVED_HEADROOM}.
   * AWS advises against a maximum concurrency above the reservation, which throttles the mapping.
   */
  public int reservedConcurrency() {
    return maxConcurrency + RESERVED_HEADROOM;
  }

  /** Partner calls in flight at once when every invocation is busy: what the partner must tolerate. */
  public int callsAtOnce() {
    return maxConcurrency * Math.min(batchSize, recordConcurrency);
  }

  /** Orders an hour when each round of a batch takes {@code perRound} of the partner's time. */
  public double ordersPerHourAt(Duration perRound) {
    return maxConcurrency * (double) batchSize * SECONDS_AN_HOUR / (sequentialRounds() * seconds(perRound));
  }

  /** Orders an hour on a normal partner day, rounded down. */
  public long typicalOrdersPerHour() {
    return (long) ordersPerHourAt(typicalRound);
  }

  /** Orders an hour when every call takes the worst case the budget absorbs, rounded down. */
  public long worstCaseOrdersPerHour() {
    return (long) ordersPerHourAt(worstCaseOrder);
  }

  /** Orders booked in {@code window} on a normal partner day. */
  public long typicallyBookedIn(Duration window) {
    return Math.round(ordersPerHourAt(typicalRound) * seconds(window) / SECONDS_AN_HOUR);
  }

  /** Visible messages above which the backlog alarm fires: what the stack books in {@link #BACKLOG_WINDOW}. */
  public long backlogAlarmThreshold() {
    return typicallyBookedIn(BACKLOG_WINDOW);
  }

  /**
   * Refuses a peak the stack cannot book when the partner is at its worst, with a sentence naming what
   * to raise and to what.
   *
   * @throws InconsistentTimingException when the capacity at the worst case is below {@code peakOrdersPerHour}
   */
  public void requireAtLeast(int peakOrdersPerHour) {
    if (peakOrdersPerHour < 1) {
      throw new InconsistentTimingException(List.of("peakOrdersPerHour is " + peakOrdersPerHour + " but must be at least 1."));
    }
    if (ordersPerHourAt(worstCaseOrder) >= peakOrdersPerHour) {
      return;
    }
    int neededConcurrency = (int) Math.ceil(
        peakOrdersPerHour * sequentialRounds() * seconds(worstCaseOrder) / (batchSize * SECONDS_AN_HOUR));
    String raise = neededConcurrency <= MAX_MAPPING_CONCURRENCY
        ? "raise maxConcurrency to at least " + neededConcurrency + " (the partner then sees up to "
            + neededConcurrency * Math.min(batchSize, recordConcurrency) + " calls at once: agree it with the partner first),"
            + " or raise batchSize together with recordConcurrency (each invocation books up to 10 orders side by side)"
        : "maxConcurrency alone cannot reach it (at most " + MAX_MAPPING_CONCURRENCY + "): raise batchSize together with"
            + " recordConcurrency (up to 10 orders side by side in each invocation) and maxConcurrency";
    throw new InconsistentTimingException(List.of(String.format(Locale.ROOT,
        "peakOrdersPerHour is %d but at the partner's worst case (%s an order: the lookup's timeout and the slowest"
            + " booking) maxConcurrency %d x batchSize %d books %d orders an hour, so a peak on a bad partner day"
            + " waits in the queue: %s, or lower partnerWorstCaseSeconds if the partner really got faster (docs/capacity.md).",
        peakOrdersPerHour, DurationText.show(worstCaseOrder), maxConcurrency, batchSize, worstCaseOrdersPerHour(), raise)));
  }

  /** One sentence: what this deployment books an hour, typically and at the worst case. */
  public String sentence() {
    int sideBySide = Math.min(batchSize, recordConcurrency);
    String round = sideBySide == 1 ? "an order" : "a round of " + sideBySide + " side by side, its slowest";
    return String.format(Locale.ROOT,
        "books about %,d orders an hour on a normal partner day (%s %s) and %,d at the worst case the budget"
            + " absorbs (%s an order): %d invocations at once x %d record%s, at most %d partner calls at once",
        typicalOrdersPerHour(), DurationText.show(typicalRound), round, worstCaseOrdersPerHour(),
        DurationText.show(worstCaseOrder), maxConcurrency, batchSize, batchSize == 1 ? "" : "s", callsAtOnce());
  }

  private int sequentialRounds() {
    return (batchSize + recordConcurrency - 1) / recordConcurrency;
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }
}
