package com.acme.fulfil.ops;

import static com.acme.fulfil.contract.records.OrderRecordLayout.PARTNER_REJECTED;

import com.acme.fulfil.contract.records.DeadLetterAttributes;
import com.acme.fulfil.order.InvalidOrder;
import java.util.Optional;

/**
 * What to do with one dead letter, and why: the one judgement {@code dlq} shows and {@code drop} and
 * {@code redrive} refuse by. Dropping is the irreversible step, so a drop needs proof that does not
 * travel with the message: the order is booked; the body breaks the order message contract (the
 * function's own parser says so, in any life); or the order's record names this very DLQ message as
 * the one the partner rejected. The label on the message proves nothing (a redrive carries it into the
 * next life). Anything else is a redrive: it costs an order still refused one partner call; a drop loses
 * a good order.
 *
 * @param failureClass the permanent failure the drop rests on; empty for a booked order and a redrive
 * @param reason that failure's reason, where the body or the record gives it
 */
record DeadLetterVerdict(boolean drop, Optional<String> failureClass, Optional<String> reason, String why) {
  static DeadLetterVerdict of(DeadLetter letter, Optional<OrderRecord> record) {
    if (record.filter(OrderRecord::booked).isPresent()) {
      return new DeadLetterVerdict(true, Optional.empty(), Optional.empty(),
          "its order is booked already: a redrive would only be suppressed");
    }
    if (letter.body() instanceof InvalidOrder invalid) {
      return new DeadLetterVerdict(true, Optional.of(DeadLetterAttributes.INVALID_MESSAGE),
          Optional.of(DeadLetterAttributes.invalidMessageReason(invalid.reason())),
          permanent(DeadLetterAttributes.INVALID_MESSAGE));
    }
    Optional<OrderRecord> rejectedThis = record.filter(r -> r.deadLetter().filter(letter.messageId()::equals).isPresent());
    if (rejectedThis.isPresent()) {
      return new DeadLetterVerdict(true, Optional.of(PARTNER_REJECTED),
          letter.reason().or(() -> rejectedThis.get().lastReason()), permanent(PARTNER_REJECTED));
    }
    return new DeadLetterVerdict(false, Optional.empty(), Optional.empty(), letter.labelled()
        ? "the order's record does not name this message as the one the partner rejected (the order was tried since,"
            + " or the record could not be written): redrive it once the cause is fixed; if it is still refused it comes"
            + " back, one partner call at most"
        : "its tries ran out on a failure that may have passed: redrive it once the cause is fixed");
  }

  /** Why a message of a permanent failure class is dropped, and what to do instead: {@code order} says the same. */
  static String permanent(String failureClass) {
    return failureClass + " can never succeed as sent: archive it, then tell the producer (invalid_message) or fix the"
        + " order with the customer and the partner (partner_rejected)";
  }
}
