package com.acme.fulfil.local.aws;

import com.acme.fulfil.contract.sqs.SqsLimits;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What the orders queue is told at creation: its visibility timeout, its retention and, when it has
 * one, the redrive to a dead-letter queue. A plain value rather than a {@code TimingBudget} because
 * the incident's queue (30 s visibility, no DLQ) must be buildable too, and the budget refuses it.
 */
public record QueueSettings(Duration visibilityTimeout, Duration retention, Optional<Redrive> redrive) {

  /** Past {@code maxReceiveCount} receives SQS moves the message to the DLQ, which keeps it {@code dlqRetention}. */
  public record Redrive(int maxReceiveCount, Duration dlqRetention) {
    public Redrive {
      Objects.requireNonNull(dlqRetention, "dlqRetention");
      if (maxReceiveCount < 1 || maxReceiveCount > SqsLimits.MAX_RECEIVE_COUNT) {
        throw new IllegalArgumentException(
            "maxReceiveCount is " + maxReceiveCount + " but SQS accepts 1 to " + SqsLimits.MAX_RECEIVE_COUNT + ".");
      }
      requireRetention("dlqRetention", dlqRetention);
    }
  }

  public QueueSettings {
    Objects.requireNonNull(visibilityTimeout, "visibilityTimeout");
    Objects.requireNonNull(retention, "retention");
    Objects.requireNonNull(redrive, "redrive");
    if (visibilityTimeout.getNano() != 0 || visibilityTimeout.isNegative()
        || visibilityTimeout.compareTo(SqsLimits.MAX_VISIBILITY) > 0) {
      throw new IllegalArgumentException("visibilityTimeout is " + visibilityTimeout
          + " but SQS only accepts whole seconds from 0 to " + SqsLimits.MAX_VISIBILITY.toSeconds() + ": choose a time scale that keeps it whole.");
    }
    requireRetention("retention", retention);
  }

  /**
   * Retention is set because the deployed queue has it, not because the embedded one honours it:
   * ElasticMQ ignores MessageRetentionPeriod, so locally a message never expires (a run's "lost" count
   * can therefore never come from retention; it can only come from a wrong delete).
   */
  private static void requireRetention(String name, Duration retention) {
    if (retention.getNano() != 0 || retention.compareTo(SqsLimits.MIN_RETENTION) < 0
        || retention.compareTo(SqsLimits.MAX_RETENTION) > 0) {
      throw new IllegalArgumentException(name + " is " + retention
          + " but SQS only accepts whole seconds from 60 s to 14 days.");
    }
  }
}
