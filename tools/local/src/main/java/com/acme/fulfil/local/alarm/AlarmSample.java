package com.acme.fulfil.local.alarm;

import java.time.Duration;
import java.util.Optional;

/**
 * What a local run saw of one configuration at one moment, for its alarms: the queues' gauges as they
 * stood, and the counts (running totals) of what happened so far.
 *
 * @param at local time since the run started
 * @param waiting the source queue's visible messages
 * @param inFlight the source queue's messages received and not deleted
 * @param oldestMessageAge the age of the oldest message in the source queue that SQS still ages (received fewer
 *     than three times), in real-world time
 * @param deadLetters the DLQ's depth, for a configuration that has one
 * @param functionErrors invocations that failed as a whole or timed out
 */
public record AlarmSample(
    Duration at,
    int waiting,
    int inFlight,
    Duration oldestMessageAge,
    Optional<Integer> deadLetters,
    long functionErrors,
    FunctionMetricCounts.Totals functionMetrics) {}
