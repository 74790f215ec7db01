package com.acme.fulfil.local.aws;

import com.acme.fulfil.contract.records.DeadLetterAttributes;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.Message;

/** Reading a message in the DLQ: which source message it stands for. */
public final class DeadLetter {
  private DeadLetter() {}

  /**
   * The id of the orders-to-fulfil message {@code message} stands for: a message the function sent to
   * the DLQ itself names it in {@code source_message_id}; one the redrive policy moved keeps its own
   * id. Read with message attribute names {@code All}.
   */
  public static String standsFor(Message message) {
    return sentByTheFunction(message) ? message.messageAttributes().get(DeadLetterAttributes.SOURCE_MESSAGE_ID).stringValue()
        : message.messageId();
  }

  /** The function sent it (SQS counts it in NumberOfMessagesSent); the redrive policy did not move it. */
  public static boolean sentByTheFunction(Message message) {
    MessageAttributeValue source = message.messageAttributes().get(DeadLetterAttributes.SOURCE_MESSAGE_ID);
    return source != null && source.stringValue() != null;
  }
}
