package com.acme.fulfil.contract.timing;

import java.time.Duration;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Lambda's SQS event source mapping and the fulfil-order handler reduced to their clocks, for checking
 * the timing rules against what actually happens to a batch.
 *
 * <p>The mapping receives the first record of a batch (its visibility window starts then), keeps
 * gathering for at most the batching window, then invokes. The handler runs the batch's records
 * {@code recordConcurrency} at a time, as its {@code CallWindow} does for each: a record looks its order
 * up at the partner (capped at the lookup timeout and at the time left before the deadline margin, and
 * refused when none is left), then starts a partner booking only if the partner's worst case still fits
 * before the deadline margin (a booking it could not finish would be an unknown outcome), cuts the call
 * at that margin, and records the outcome within the margin; only then does its slot take the next
 * record. Lambda ends the invocation at the function timeout whatever the handler is doing.
 */
final class EventSourceMappingModel {
  private EventSourceMappingModel() {}

  /**
   * One batch's timeline, all offsets from the first record's receive.
   *
   * @param receivedAt when each record of the batch was received (its visibility window opened)
   * @param invokedAt when the mapping invoked the function with the batch
   * @param lookupLatencies how long the partner's lookup of each record's order would take, if the handler waited
   * @param partnerLatencies how long the partner would take for each record's booking, if the handler waited
   * @param recordingTimes how long each record's outcome takes to record after its call
   * @param hangs the invocation never returns by itself (a stuck dependency): Lambda's timeout ends it
   */
  record Batch(List<Duration> receivedAt, Duration invokedAt, List<Duration> lookupLatencies,
      List<Duration> partnerLatencies, List<Duration> recordingTimes, boolean hangs) {}

  /**
   * How the invocation went.
   *
   * @param end when it stopped running, as an offset from the first record's receive
   * @param bookingsNotStarted records that found too little time left to look up or to book
   *     ({@code no_time_to_book}): they retry on a later receive
   */
  record Run(Duration end, int bookingsNotStarted) {}

  static Run run(TimingBudget budget, Batch batch) {
    Duration deadline = batch.invokedAt().plus(budget.functionTimeout());
    PriorityQueue<Duration> freeSlots = new PriorityQueue<>();
    for (int i = 0; i < budget.recordConcurrency(); i++) {
      freeSlots.add(batch.invokedAt());
    }
    Duration lastDone = batch.invokedAt();
    int notStarted = 0;
    for (int record = 0; record < batch.partnerLatencies().size(); record++) {
      Duration start = freeSlots.poll();
      Duration done = start;
      Duration forLookup = deadline.minus(start).minus(budget.partnerDeadlineMargin());
      if (!forLookup.isPositive()) {
        notStarted++;
      } else {
        Duration looked = start.plus(min(batch.lookupLatencies().get(record), min(forLookup, budget.partnerLookupTimeout())));
        Duration usable = deadline.minus(looked).minus(budget.partnerDeadlineMargin());
        done = looked;
        if (usable.compareTo(budget.partnerWorstCase()) >= 0) {
          Duration call = min(batch.partnerLatencies().get(record), usable);
          done = looked.plus(call).plus(batch.recordingTimes().get(record));
        } else {
          notStarted++;
        }
      }
      freeSlots.add(done);
      lastDone = max(lastDone, done);
    }
    return new Run(batch.hangs() ? deadline : min(lastDone, deadline), notStarted);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
