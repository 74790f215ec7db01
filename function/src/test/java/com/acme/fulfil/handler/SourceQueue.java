package com.acme.fulfil.handler;

import com.acme.fulfil.local.aws.QueueRef;
import com.acme.fulfil.local.esm.SqsEventTranslator;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.util.List;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * A queue the function reads orders from, as a test feeds it and as the event source mapping hands its
 * messages to the function: each record names the queue by its ARN, which is where the function returns it.
 */
final class SourceQueue {
  private final SqsClient sqs;
  private final QueueRef queue;
  private final SqsEventTranslator translator;

  SourceQueue(SqsClient sqs, QueueRef queue) {
    this.sqs = sqs;
    this.queue = queue;
    this.translator = new SqsEventTranslator(queue);
  }

  String send(String body) {
    return sqs.sendMessage(r -> r.queueUrl(queue.url()).messageBody(body)).messageId();
  }

  /** Receives what is visible now, as the event source mapping would hand it to the function. */
  SQSEvent receive(int max) {
    List<Message> messages = sqs.receiveMessage(r -> r.queueUrl(queue.url()).maxNumberOfMessages(max)
        .waitTimeSeconds(1).messageSystemAttributeNames(MessageSystemAttributeName.ALL)
        .messageAttributeNames("All")).messages();
    return translator.toEvent(messages);
  }

  SQSEvent sendAndReceive(String body) {
    send(body);
    return receive(1);
  }
}
