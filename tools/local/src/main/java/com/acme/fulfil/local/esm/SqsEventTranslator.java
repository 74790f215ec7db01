package com.acme.fulfil.local.esm;

import com.acme.fulfil.local.aws.QueueRef;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/** Turns received SQS messages into the event Lambda hands the function, field for field. */
public final class SqsEventTranslator {
  private final QueueRef queue;

  public SqsEventTranslator(QueueRef queue) {
    this.queue = queue;
  }

  public SQSEvent toEvent(List<Message> messages) {
    SQSEvent event = new SQSEvent();
    event.setRecords(messages.stream().map(this::toRecord).toList());
    return event;
  }

  private SQSEvent.SQSMessage toRecord(Message message) {
    SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
    record.setMessageId(message.messageId());
    record.setReceiptHandle(message.receiptHandle());
    record.setBody(message.body());
    record.setMd5OfBody(message.md5OfBody());
    record.setMd5OfMessageAttributes(message.md5OfMessageAttributes());
    record.setAttributes(new HashMap<>(message.attributesAsStrings()));
    Map<String, SQSEvent.MessageAttribute> attributes = new HashMap<>();
    message.messageAttributes().forEach((name, value) -> attributes.put(name, toAttribute(value)));
    record.setMessageAttributes(attributes);
    record.setEventSource("aws:sqs");
    record.setEventSourceArn(queue.arn());
    record.setAwsRegion(queue.region());
    return record;
  }

  private static SQSEvent.MessageAttribute toAttribute(MessageAttributeValue value) {
    SQSEvent.MessageAttribute attribute = new SQSEvent.MessageAttribute();
    attribute.setDataType(value.dataType());
    attribute.setStringValue(value.stringValue());
    if (value.binaryValue() != null) {
      attribute.setBinaryValue(ByteBuffer.wrap(value.binaryValue().asByteArray()));
    }
    attribute.setStringListValues(value.stringListValues());
    attribute.setBinaryListValues(value.binaryListValues().stream()
        .map(SdkBytes::asByteArray).map(ByteBuffer::wrap).toList());
    return attribute;
  }
}
