package com.acme.fulfil.local.aws;

import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** What a queue holds right now, as SQS counts it: waiting to be received, and received but not deleted. */
public record QueueDepth(int visible, int inFlight) {

  public static QueueDepth of(SqsClient sqs, QueueRef queue) {
    Map<QueueAttributeName, String> attributes = sqs.getQueueAttributes(request -> request
        .queueUrl(queue.url())
        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
    return new QueueDepth(
        Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)),
        Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)));
  }

  public int total() {
    return visible + inFlight;
  }
}
