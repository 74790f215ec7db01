package com.acme.fulfil.local.scenario;

import com.acme.fulfil.local.alarm.AlarmOutcome;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one configuration did with the order stream. Bookings come from the partner's ledger (the
 * truth: what couriers were sent), the DLQ and queued counts from the queues, receives from the event
 * source mapping. Durations are local; multiply by the time-scale divisor for the real world.
 *
 * @param queued orders whose message is still in the source queue (visible or in flight)
 * @param lost orders neither booked, nor in the DLQ, nor still queued: a message deleted without its
 *     booking. Must be 0.
 * @param staleDeletes deletes refused because the message had been handed out again meanwhile
 * @param settledAfter when every order's message had been deleted or dead-lettered, if that happened
 *     before the deadline
 * @param capacityOrdersPerHour real-world orders an hour the configuration books on a normal partner day
 * @param offeredOrdersPerHour real-world orders an hour the checkout service sent
 * @param mostWaiting the most messages seen waiting (visible) in the source queue
 * @param alarms each of the stack's alarms played on the run: whether and when it fired
 * @param partnerCalls the requests the partner received: what each order costs it
 * @param transientFailures failed tries by cause, from the function's log lines: this project's function's
 *     only, the incident's logs no causes
 * @param recovery how the orders that met the partner's outages came through, on a day with outages
 * @param sendToBooking from sending each booked order to its first booking, and the two parts of it
 */
public record DeploymentReport(
    String configuration,
    String title,
    int maxConcurrency,
    int batchSize,
    int orders,
    int poisonOrders,
    int bookedOnce,
    int bookedTwiceOrMore,
    int bookings,
    Optional<Integer> dlq,
    Map<String, Integer> dlqReasons,
    int queued,
    int queueDepth,
    int lost,
    Receives goodReceives,
    Receives neverBookableReceives,
    int staleDeletes,
    int timedOutInvocations,
    int failedInvocations,
    Optional<SendToBooking> sendToBooking,
    Optional<Spread> neverBookableToDlq,
    Optional<Duration> settledAfter,
    Duration ran,
    long capacityOrdersPerHour,
    long offeredOrdersPerHour,
    int mostWaiting,
    List<AlarmOutcome> alarms,
    PartnerCalls partnerCalls,
    Optional<Map<FailureCause, Integer>> transientFailures,
    Optional<Recovery> recovery) {

  public DeploymentReport {
    dlqReasons = Collections.unmodifiableMap(new LinkedHashMap<>(dlqReasons));
    alarms = List.copyOf(alarms);
    transientFailures = transientFailures.map(byCause -> Collections.unmodifiableMap(new LinkedHashMap<>(byCause)));
  }

  public AlarmOutcome alarm(String name) {
    return alarms.stream().filter(alarm -> alarm.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no alarm " + name));
  }

  /** p50, p95 and the maximum of a set of durations. */
  public record Spread(Duration p50, Duration p95, Duration max) {}

  /**
   * Send to first booking over the booked orders, and its parts: the partner answering (its drawn
   * latencies, scaled: {@link PartnerShare}) and the rest, which is this machine's (waiting for an
   * invocation, waits between tries, the function's own work) and keeps its seconds at any scale. Each
   * spread is over its own per-order figures, so the parts' percentiles need not add up to the whole's.
   */
  public record SendToBooking(Spread all, Spread partner, Spread rest) {}

  /** Booking requests and lookups the partner received. */
  public record PartnerCalls(int bookings, int lookups) {}

  /**
   * The orders that met the partner's outages ({@link OutageRecovery}).
   *
   * @param unbooked of them, not booked when the run ended
   * @param backlogBookedAfter from the partner's recovery to the last of them booked, when all were
   */
  public record Recovery(int orders, int unbooked, Optional<Duration> backlogBookedAfter, Optional<Spread> sendToBooking,
      Receives receives) {}

  /** Receives per message for a group of messages: the mean and the most. */
  public record Receives(double mean, int max) {}
}
