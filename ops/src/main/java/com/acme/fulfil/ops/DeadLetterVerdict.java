package com.acme.fulfil.ops;

import com.acme.fulfil.fulfilment.RecordOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What to do with one dead letter, and why: the one judgement {@code dlq} shows and {@code redrive}
 * refuses by. Dropping is the irreversible step, so "drop" needs proof: the order is booked, or the
 * function's label on the message was written in this message's life and the order's record agrees
 * with it. A label a redrive carried in from an earlier life, a label without a date (written before
 * labels were dated) and a record that tells another story all say "redrive": a redrive costs an order
 * that is still refused one partner call, and it comes back freshly labelled; a drop loses a good order.
 */
record DeadLetterVerdict(boolean drop, String why) {
  /**
   * How far a function-sent message's SentTimestamp may lie from the label's failure_at: the send's
   * latency and retries, and the clocks of Lambda and SQS. A redrive sends the message again, later.
   */
  static final Duration LABEL_TO_SEND = Duration.ofSeconds(60);

  static DeadLetterVerdict of(DeadLetter letter, Optional<OrderRecord> record) {
    if (record.filter(OrderRecord::booked).isPresent()) {
      return new DeadLetterVerdict(true, "its order is booked already: a redrive would only be suppressed");
    }
    if (!letter.labelled()) {
      return new DeadLetterVerdict(false, "its tries ran out on a failure that may have passed: redrive it once the cause"
          + " is fixed");
    }
    Optional<String> doubt = doubt(letter, record);
    if (doubt.isPresent()) {
      return new DeadLetterVerdict(false, "its " + letter.failureClass() + " label does not speak for it: " + doubt.get()
          + ". Redrive it once the cause is fixed; if it is still refused it comes back with a fresh label (one partner"
          + " call at most)");
    }
    return new DeadLetterVerdict(true, permanent(letter.failureClass()));
  }

  /** Why a message of a permanent failure class is dropped, and what to do instead: {@code order} says the same. */
  static String permanent(String failureClass) {
    return failureClass + " can never succeed as sent: archive it, then tell the producer (invalid_message) or fix the"
        + " order with the customer and the partner (partner_rejected)";
  }

  /** Why the label may not say why this message is here; empty if the message and the record bear it out. */
  private static Optional<String> doubt(DeadLetter letter, Optional<OrderRecord> record) {
    if (letter.movedByRedrivePolicy()) {
      return Optional.of("the redrive policy moved it here after its receives ran out, so the label is from an earlier"
          + " life, carried over by a redrive");
    }
    if (letter.labelledAt().isEmpty()) {
      return Optional.of("it has no failure_at (written before labels were dated), so it cannot be shown to be from"
          + " this message's life");
    }
    Instant labelledAt = letter.labelledAt().get();
    if (Duration.between(labelledAt, letter.sentAt()).abs().compareTo(LABEL_TO_SEND) > 0) {
      return Optional.of("it was written at " + labelledAt + " and the message sent at " + letter.sentAt()
          + ", so the label is from an earlier life, carried over by a redrive");
    }
    // An invalid message never claims its order: the record, if any, is another message's story.
    if (!RecordOutcome.Rejected.PARTNER_REJECTED.equals(letter.failureClass())) {
      return Optional.empty();
    }
    if (record.isEmpty()) {
      return Optional.of("the order has no record to confirm the partner's verdict");
    }
    OrderRecord r = record.get();
    if (r.lastTryAt().filter(labelledAt::isBefore).isPresent()) {
      return Optional.of("the order was tried again after the label was written (" + r.tries() + " tries, the last at "
          + r.lastTryAt().get() + ", " + r.lastOutcome().orElse("no outcome") + r.lastReason().map(why -> ": " + why)
          .orElse("") + ")");
    }
    if (!r.lastOutcome().filter(RecordOutcome.Rejected.PARTNER_REJECTED::equals).isPresent()) {
      return Optional.of("the order's record ends with another outcome (" + r.lastOutcome().orElse("none")
          + r.lastReason().map(why -> ": " + why).orElse("") + ")");
    }
    return Optional.empty();
  }
}
