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
 * @param deadLetters the DLQ's depth (visible and in flight), for a configuration that has one
 * @param sourceReceives how many messages the source queue has handed out so far (every receive of each)
 * @param sourceDeletes how many messages have been deleted from the source queue so far
 * @param functionErrors invocations that failed as a whole or timed out
 */
public record AlarmSample(
    Duration at,
    int waiting,
    int inFlight,
    Duration oldestMessageAge,
    Optional<Integer> deadLetters,
    long sourceReceives,
    long sourceDeletes,
    long functionErrors,
    FunctionMetricCounts.Totals functionMetrics) {}
