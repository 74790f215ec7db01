package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.records.DeadLetterAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The judgement {@code dlq} shows and {@code drop} refuses by, case by case: a drop rests on the order's
 * booking, on the body, or on the order's record naming this DLQ message, and never on the label a
 * message carries. FulfilOpsTest and OrderLifeModelTest show the same on the function and the queues.
 */
class DeadLetterVerdictTest {
  private static final Instant SENT_AT = Instant.parse("2026-11-25T09:00:01Z");
  private static final String VALID = """
      {"order_id":"ORD-VERDICT-1","placed_at":"2026-11-25T08:59:00Z","service":"standard",
       "ship_to":{"name":"A","line1":"1 Street","city":"Town","postcode":"AB1 2CD","country":"GB"},
       "parcels":[{"weight_grams":1000}]}""";
  private static final String DEAD_LETTER_ID = "dlq-message";

  @Test
  void aPartnerRejectionTheRecordNamesThisMessageForIsDropped() {
    DeadLetterVerdict verdict = DeadLetterVerdict.of(letter(VALID, true, false), Optional.of(rejected(DEAD_LETTER_ID)));
    assertThat(verdict.drop()).as(verdict.why()).isTrue();
    assertThat(verdict.failureClass()).contains("partner_rejected");
    assertThat(verdict.reason()).contains("partner rejected the order: 422 address_rejected");
  }

  @Test
  void aRecordThatNamesAnotherDeadLetterSaysRedrive() {
    DeadLetterVerdict verdict = DeadLetterVerdict.of(letter(VALID, true, false), Optional.of(rejected("another-dlq-message")));
    assertThat(verdict.drop()).isFalse();
    assertThat(verdict.why()).contains("does not name this message");
  }

  @Test
  void aPartnerRejectionLabelAloneIsNoProof() {
    DeadLetterVerdict noRecord = DeadLetterVerdict.of(letter(VALID, true, false), Optional.empty());
    DeadLetterVerdict triedSince = DeadLetterVerdict.of(letter(VALID, true, false), Optional.of(record("outcome_unknown",
        Optional.empty())));
    assertThat(noRecord.drop()).isFalse();
    assertThat(triedSince.drop()).isFalse();
  }

  @Test
  void theLabelOfAnEarlierLifeOnAMessageTheRedrivePolicyMovedIsNotRead() {
    DeadLetter moved = letter(VALID, true, true);
    assertThat(moved.labelled()).isFalse();
    assertThat(moved.reason()).isEmpty();
    assertThat(DeadLetterVerdict.of(moved, Optional.empty()).why()).contains("tries ran out");
  }

  @Test
  void aBodyThatBreaksTheContractIsDroppedWithOrWithoutALabelInAnyLife() {
    String invalid = "{\"order_id\":\"ORD-VERDICT-1\",\"service\":\"teleport\"}";
    for (DeadLetter letter : new DeadLetter[] {letter(invalid, false, false), letter(invalid, false, true)}) {
      DeadLetterVerdict verdict = DeadLetterVerdict.of(letter, Optional.empty());
      assertThat(verdict.drop()).as(verdict.why()).isTrue();
      assertThat(verdict.failureClass()).contains("invalid_message");
      assertThat(verdict.reason()).hasValueSatisfying(reason -> assertThat(reason)
          .startsWith("invalid order message: ").contains("service must be"));
    }
  }

  @Test
  void aBookedOrderIsDroppedWhateverItsLabel() {
    OrderRecord booked = new OrderRecord("k", "COMPLETED", 6, Optional.of(SENT_AT), Optional.of("booked"),
        Optional.empty(), Optional.empty(), Optional.empty(), SENT_AT.plus(Duration.ofDays(21)), Optional.empty(),
        Optional.empty());
    assertThat(DeadLetterVerdict.of(letter(VALID, true, true), Optional.of(booked)).drop()).isTrue();
  }

  private static DeadLetter letter(String body, boolean labelled, boolean movedByRedrivePolicy) {
    Map<String, MessageAttributeValue> attributes = new HashMap<>();
    if (labelled) {
      attributes.put(DeadLetterAttributes.FAILURE_CLASS, text("partner_rejected"));
      attributes.put(DeadLetterAttributes.FAILURE_REASON, text("partner rejected the order: 422 address_rejected"));
      attributes.put(DeadLetterAttributes.ORDER_ID, text("ORD-VERDICT-1"));
      attributes.put(DeadLetterAttributes.SOURCE_MESSAGE_ID, text("first-life-message"));
    }
    Map<MessageSystemAttributeName, String> system = new HashMap<>();
    system.put(MessageSystemAttributeName.SENT_TIMESTAMP, Long.toString(SENT_AT.toEpochMilli()));
    if (movedByRedrivePolicy) {
      system.put(MessageSystemAttributeName.DEAD_LETTER_QUEUE_SOURCE_ARN, "arn:aws:sqs:eu-west-1:000000000000:orders-to-fulfil");
    }
    Message message = Message.builder().messageId(DEAD_LETTER_ID).body(body).messageAttributes(attributes).attributes(system)
        .build();
    return DeadLetter.read(message, Duration.ofDays(14));
  }

  private static OrderRecord rejected(String deadLetter) {
    return record("partner_rejected", Optional.of(deadLetter));
  }

  private static OrderRecord record(String lastOutcome, Optional<String> deadLetter) {
    return new OrderRecord("k", "INPROGRESS", 1, Optional.of(SENT_AT), Optional.of(lastOutcome), Optional.of("why"),
        Optional.empty(), Optional.empty(), SENT_AT.plus(Duration.ofDays(21)), Optional.empty(), deadLetter);
  }

  private static MessageAttributeValue text(String value) {
    return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
  }
}
