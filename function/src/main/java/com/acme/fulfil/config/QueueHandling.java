package com.acme.fulfil.config;

import com.acme.fulfil.contract.sqs.SqsLimits;
import com.acme.fulfil.contract.timing.RetrySchedule;
import java.util.Objects;
import java.util.Optional;

/**
 * How the function works through what SQS hands it: the records of a batch it runs side by side, the receives the
 * queue's redrive policy allows before the DLQ, when a failed try's message comes back, and the DLQ a message that can
 * never succeed is sent to (none in a run without one).
 */
public record QueueHandling(int recordConcurrency, int maxReceiveCount, RetrySchedule retrySchedule,
    Optional<String> deadLetterQueueUrl) {
  public QueueHandling {
    if (recordConcurrency < 1) {
      Parts.refuse("recordConcurrency", "must be at least 1, got " + recordConcurrency);
    }
    if (maxReceiveCount < 1 || maxReceiveCount > SqsLimits.MAX_RECEIVE_COUNT) {
      Parts.refuse("maxReceiveCount", "must be from 1 to " + SqsLimits.MAX_RECEIVE_COUNT + " (SQS's redrive policy), got "
          + maxReceiveCount);
    }
    Objects.requireNonNull(retrySchedule, "retrySchedule");
    Objects.requireNonNull(deadLetterQueueUrl, "deadLetterQueueUrl");
  }
}
