package com.acme.fulfil.local.esm;

import com.acme.fulfil.local.aws.QueueRef;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import java.util.List;
import java.util.TreeMap;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * The JSON document Lambda's SQS event source mapping sends the function for a batch of received
 * messages, field for field as AWS documents it ("Using Lambda with Amazon SQS", the example event):
 * {@code Records[]} of {@code messageId}, {@code receiptHandle}, {@code body}, {@code attributes}
 * (the system attributes as strings), {@code messageAttributes} (each with {@code stringValue},
 * {@code binaryValue} in base64, {@code stringListValues}, {@code binaryListValues}, {@code dataType}),
 * {@code md5OfBody}, {@code md5OfMessageAttributes} when there are attributes, {@code eventSource},
 * {@code eventSourceARN}, {@code awsRegion}.
 */
public final class SqsEventJson {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final QueueRef queue;

  public SqsEventJson(QueueRef queue) {
    this.queue = queue;
  }

  public byte[] toEvent(List<Message> messages) {
    ObjectNode event = JSON.createObjectNode();
    ArrayNode records = event.putArray("Records");
    messages.forEach(message -> records.add(record(message)));
    try {
      return JSON.writeValueAsBytes(event);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private ObjectNode record(Message message) {
    ObjectNode record = JSON.createObjectNode();
    record.put("messageId", message.messageId());
    record.put("receiptHandle", message.receiptHandle());
    record.put("body", message.body());
    ObjectNode attributes = record.putObject("attributes");
    new TreeMap<>(message.attributesAsStrings()).forEach(attributes::put);
    ObjectNode messageAttributes = record.putObject("messageAttributes");
    new TreeMap<>(message.messageAttributes()).forEach((name, value) -> messageAttributes.set(name, attribute(value)));
    record.put("md5OfBody", message.md5OfBody());
    if (message.md5OfMessageAttributes() != null) {
      record.put("md5OfMessageAttributes", message.md5OfMessageAttributes());
    }
    record.put("eventSource", "aws:sqs");
    record.put("eventSourceARN", queue.arn());
    record.put("awsRegion", queue.region());
    return record;
  }

  private static ObjectNode attribute(MessageAttributeValue value) {
    ObjectNode attribute = JSON.createObjectNode();
    if (value.stringValue() != null) {
      attribute.put("stringValue", value.stringValue());
    }
    if (value.binaryValue() != null) {
      attribute.put("binaryValue", base64(value.binaryValue()));
    }
    ArrayNode strings = attribute.putArray("stringListValues");
    value.stringListValues().forEach(strings::add);
    ArrayNode binaries = attribute.putArray("binaryListValues");
    value.binaryListValues().forEach(bytes -> binaries.add(base64(bytes)));
    attribute.put("dataType", value.dataType());
    return attribute;
  }

  private static String base64(SdkBytes bytes) {
    return Base64.getEncoder().encodeToString(bytes.asByteArray());
  }
}
