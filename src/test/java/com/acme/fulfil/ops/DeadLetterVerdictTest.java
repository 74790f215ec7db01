package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.DeadLetterAttributes;
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
 * The judgement {@code dlq} shows and {@code redrive} refuses by, case by case: a drop needs the
 * order booked, or a label written in this message's life that the order's record bears out.
 * FulfilOpsTest shows the same on the packaged function and the emulated queues.
 */
class DeadLetterVerdictTest {
  private static final Instant REJECTED_AT = Instant.parse("2026-11-25T09:00:00.200Z");
  private static final Instant LABELLED_AT = Instant.parse("2026-11-25T09:00:01Z");

  @Test
  void aFreshPartnerVerdictTheRecordBearsOutIsDropped() {
    DeadLetterVerdict verdict = DeadLetterVerdict.of(letter(LABELLED_AT.plusMillis(40), true, false),
        Optional.of(record(1, REJECTED_AT, "partner_rejected")));
    assertThat(verdict.drop()).as(verdict.why()).isTrue();
  }

  @Test
  void aLabelTheRedrivePolicyBroughtIsFromAnEarlierLife() {
    DeadLetterVerdict verdict = DeadLetterVerdict.of(letter(LABELLED_AT.plusMillis(40), true, true),
        Optional.of(record(1, REJECTED_AT, "partner_rejected")));
    assertThat(verdict.drop()).isFalse();
    assertThat(verdict.why()).contains("redrive policy moved it").contains("earlier life");
  }

  @Test
  void aMessageSentLongAfterItsLabelCarriesAnEarlierLifesLabel() {
    DeadLetterVerdict verdict = DeadLetterVerdict.of(letter(LABELLED_AT.plus(Duration.ofHours(3)), true, false),
        Optional.of(record(1, REJECTED_AT, "partner_rejected")));
    assertThat(verdict.drop()).isFalse();
    assertThat(verdict.why()).contains("earlier life");
  }

  @Test
  void aRecordWithATryAfterTheLabelSaysRedrive() {
    DeadLetterVerdict verdict = DeadLetterVerdict.of(letter(LABELLED_AT.plusMillis(40), true, false),
        Optional.of(record(6, LABELLED_AT.plus(Duration.ofHours(2)), "failed")));
    assertThat(verdict.drop()).isFalse();
    assertThat(verdict.why()).contains("tried again after the label was written").contains("6 tries");
  }

  @Test
  void aRecordThatEndsWithAnotherOutcomeSaysRedrive() {
    DeadLetterVerdict verdict = DeadLetterVerdict.of(letter(LABELLED_AT.plusMillis(40), true, false),
        Optional.of(record(1, REJECTED_AT, "outcome_unknown")));
    assertThat(verdict.drop()).isFalse();
    assertThat(verdict.why()).contains("another outcome (outcome_unknown");
  }

  @Test
  void aPartnerVerdictWithoutARecordIsNotDropped() {
    assertThat(DeadLetterVerdict.of(letter(LABELLED_AT.plusMillis(40), true, false), Optional.empty()).drop()).isFalse();
  }

  @Test
  void aLabelWithoutADateIsNotTrustedWithADrop() {
    DeadLetterVerdict verdict = DeadLetterVerdict.of(letter(LABELLED_AT.plusMillis(40), false, false),
        Optional.of(record(1, REJECTED_AT, "partner_rejected")));
    assertThat(verdict.drop()).isFalse();
    assertThat(verdict.why()).contains("no failure_at");
  }

  @Test
  void aBookedOrderIsDroppedWhateverItsLabel() {
    OrderRecord booked = new OrderRecord("k", "COMPLETED", 6, Optional.of(REJECTED_AT), Optional.of("booked"),
        Optional.empty(), Optional.empty(), Optional.empty(), REJECTED_AT.plus(Duration.ofDays(21)), Optional.empty());
    assertThat(DeadLetterVerdict.of(letter(LABELLED_AT.plus(Duration.ofHours(3)), true, true), Optional.of(booked)).drop())
        .isTrue();
  }

  private static DeadLetter letter(Instant sentAt, boolean dated, boolean movedByRedrivePolicy) {
    Map<String, MessageAttributeValue> attributes = new HashMap<>();
    attributes.put(DeadLetterAttributes.FAILURE_CLASS, text("partner_rejected"));
    attributes.put(DeadLetterAttributes.FAILURE_REASON, text("partner rejected the order: 422 address_rejected"));
    attributes.put(DeadLetterAttributes.ORDER_ID, text("ORD-VERDICT-1"));
    attributes.put(DeadLetterAttributes.SOURCE_MESSAGE_ID, text("first-life-message"));
    if (dated) {
      attributes.put(DeadLetterAttributes.FAILURE_AT, text(LABELLED_AT.toString()));
    }
    Map<MessageSystemAttributeName, String> system = new HashMap<>();
    system.put(MessageSystemAttributeName.SENT_TIMESTAMP, Long.toString(sentAt.toEpochMilli()));
    if (movedByRedrivePolicy) {
      system.put(MessageSystemAttributeName.DEAD_LETTER_QUEUE_SOURCE_ARN, "arn:aws:sqs:eu-west-1:000000000000:orders-to-fulfil");
    }
    Message message = Message.builder().messageId("dlq-message").body("{\"order_id\":\"ORD-VERDICT-1\"}")
        .messageAttributes(attributes).attributes(system).build();
    return DeadLetter.read(message, Duration.ofDays(14));
  }

  private static OrderRecord record(int tries, Instant lastTryAt, String lastOutcome) {
    return new OrderRecord("k", "INPROGRESS", tries, Optional.of(lastTryAt), Optional.of(lastOutcome),
        Optional.of("why"), Optional.empty(), Optional.empty(), lastTryAt.plus(Duration.ofDays(21)), Optional.empty());
  }

  private static MessageAttributeValue text(String value) {
    return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
  }
}
