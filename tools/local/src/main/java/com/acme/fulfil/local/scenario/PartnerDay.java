package com.acme.fulfil.local.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The partner's day during a run. Every day has the incident's latency shape (a sharp peak around
 * 40 s, a tail to 280 s); the others add one event a fifth of the way into the sending. Event windows
 * are in local time (a 10 s window is five minutes at the 1/30 scale).
 */
public enum PartnerDay {
  /** Only the incident's latencies. */
  HEALTHY("healthy, with the incident's latencies"),
  /** For a window, every booking takes a tail latency and 30% of them answer 503. */
  DEGRADED("degraded window: tail latencies, 30% answer 503"),
  /** For a window, every request answers 503 at once. */
  OUTAGE("outage window: every request answers 503"),
  /** The partner cuts over to a new API key; the secret is updated just before, as the runbook says. */
  KEY_ROTATION("API key rotation"),
  /** Three minute-long windows, four minutes apart, in which every request answers 503 at once. */
  BLIPS("blips: three 1-minute windows, 4 minutes apart, every request answers 503"),
  /**
   * Every request answers 503 for longer than an order retries, so the orders that met it reach the DLQ
   * one after another (the outage's tail); once the partner is back and the queue has drained, on-call
   * redrives the DLQ (the runbook's "The DLQ alarms").
   */
  LONG_OUTAGE("long outage: every request answers 503 for 2 h 52.5 min, longer than an order retries; then a redrive of the DLQ");

  static final Duration WINDOW = Duration.ofSeconds(10);
  /** A blip: a minute of the real world. */
  static final Duration BLIP = Duration.ofSeconds(2);
  static final Duration BETWEEN_BLIPS = Duration.ofSeconds(8);
  static final int BLIP_COUNT = 3;
  static final double DEGRADED_UNAVAILABLE_SHARE = 0.3;
  /**
   * Past the shortest retry life (2.5 h, 300 s here) of the orders sent in the outage's first half minute,
   * short of the later ones': the first reach the DLQ over consecutive alarm periods, the rest are booked.
   */
  static final Duration LONG_WINDOW = Duration.ofSeconds(345);
  /** After a long outage: its last orders reach the DLQ up to a visibility timeout after their last try, then the redrive. */
  private static final Duration REDRIVE_DRAIN = Duration.ofSeconds(240);

  private final String description;

  PartnerDay(String description) {
    this.description = description;
  }

  public String description() {
    return description;
  }

  /** The option's spelling: {@code key-rotation}. */
  public String option() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** When the partner is down, counted from the event: every request answers 503 at once. */
  public List<Outage> outages() {
    return switch (this) {
      case OUTAGE -> List.of(new Outage(Duration.ZERO, WINDOW));
      case LONG_OUTAGE -> List.of(new Outage(Duration.ZERO, LONG_WINDOW));
      case BLIPS -> IntStream.range(0, BLIP_COUNT)
          .mapToObj(i -> new Outage(BETWEEN_BLIPS.multipliedBy(i), BLIP)).toList();
      case HEALTHY, DEGRADED, KEY_ROTATION -> List.of();
    };
  }

  /** On-call redrives the DLQ once the partner is back and the queue has drained. */
  public boolean endsWithARedrive() {
    return this == LONG_OUTAGE;
  }

  /** How much longer than the others' the run may take: the outage, the tail's last moves, the redrive. */
  public Duration longerRun() {
    return endsWithARedrive() ? LONG_WINDOW.plus(REDRIVE_DRAIN) : Duration.ZERO;
  }

  /** The partner goes down, so the run reports how the orders that met it recovered. */
  public boolean hasOutages() {
    return !outages().isEmpty();
  }

  /** @param after from the day's event */
  public record Outage(Duration after, Duration length) {}

  public static PartnerDay fromOption(String value) {
    for (PartnerDay day : values()) {
      if (day.option().equals(value)) {
        return day;
      }
    }
    throw new IllegalArgumentException("unknown partner mode '" + value
        + "': use healthy, degraded, outage, blips, key-rotation or long-outage");
  }

  /**
   * Transient failures: orders retry, some after an unknown outcome's late-booking hold (10 s locally),
   * fixed-1800's after the 60 s it waits on every failure, so the run waits longer for them.
   */
  public boolean causesRetries() {
    return this != HEALTHY;
  }
}
