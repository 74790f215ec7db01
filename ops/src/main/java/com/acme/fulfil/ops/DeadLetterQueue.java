package com.acme.fulfil.ops;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.ReceiptHandleIsInvalidException;

/**
 * Reading the DLQ without consuming it: messages are received with a short hold and handed back
 * (visibility 0) once read, so a look changes nothing but their receive count, which a DLQ does not act on.
 * A message another reader holds (another run of this command, a console poll) cannot be received: a
 * reading says how many messages SQS counts besides the ones it read, so that none goes unseen in silence.
 */
final class DeadLetterQueue {
  /**
   * A drop's hold on the messages it names: long enough to archive and delete them with the handle it
   * read them with.
   */
  static final Duration HOLD = Duration.ofSeconds(60);
  /**
   * A look's hold, which hides the messages from every other reader until they are handed back: a few
   * hundred batches' time. A read that outlasts it sees messages come round again, ends, and says it
   * missed what it did not see.
   */
  private static final Duration LOOK_HOLD = Duration.ofSeconds(15);
  /** The shortest long poll: any wait at all makes SQS ask every server. */
  private static final Duration LONG_POLL = Duration.ofSeconds(1);

  private final SqsClient sqs;
  private final String url;

  private final Duration deployedRetention;

  /** @param deployedRetention the DLQ's retention in the budget, for an SQS that does not report its own */
  DeadLetterQueue(SqsClient sqs, String url, Duration deployedRetention) {
    this.sqs = sqs;
    this.url = url;
    this.deployedRetention = deployedRetention;
  }

  Duration retention() {
    String seconds = sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNames(QueueAttributeName.MESSAGE_RETENTION_PERIOD))
        .attributes().get(QueueAttributeName.MESSAGE_RETENTION_PERIOD);
    return seconds == null ? deployedRetention : Duration.ofSeconds(Long.parseLong(seconds));
  }

  /**
   * The messages one read saw, and how many SQS counted in the DLQ while the read still held them.
   *
   * @param counted visible and held (by this read or any other reader) messages, as SQS counts them
   *     right after the read: more than were read means some were held elsewhere, or arrived meanwhile
   */
  record Reading(List<DeadLetter> letters, long counted) {}

  /** Every message this read can see, handed back at once, and how many the DLQ holds. */
  Reading readAll() {
    Duration retention = retention();
    List<Message> held = receiveAll(LOOK_HOLD);
    // Counted while this read still holds its messages: they are among the ones not visible.
    long counted;
    try {
      counted = counted();
    } finally {
      release(held);
    }
    return new Reading(held.stream().map(message -> DeadLetter.read(message, retention)).toList(), counted);
  }

  private long counted() {
    Map<QueueAttributeName, String> counts = sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNames(
        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
        .attributes();
    return Long.parseLong(counts.getOrDefault(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, "0"))
        + Long.parseLong(counts.getOrDefault(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE, "0"));
  }

  /**
   * What a set of ids names in the DLQ: each id's message, held; or, for an id that names no message of
   * its own and stands for several copies, those copies, and then nothing is held.
   *
   * @param heldElsewhere messages SQS counted in the DLQ beyond the ones this read saw: held by another
   *     reader (or arrived meanwhile). An id this read did not find may be one of them, not gone.
   */
  record Named(Map<String, DeadLetter> held, Map<String, List<String>> ambiguous, long heldElsewhere) {}

  /**
   * Holds the message each id names, and hands every other one back. An id names the message with that
   * id, or else the one message that stands for the source message of that id; if several stand for it,
   * the id names none for sure, and every message is handed back: a drop acts on exactly the messages
   * named, or on none.
   */
  Named hold(Set<String> ids) {
    return hold(ids, true);
  }

  /**
   * Holds the messages with exactly these ids, and hands every other one back: the look after a delete,
   * where a copy that stands for a deleted message is another message, not the one still there.
   */
  Map<String, DeadLetter> holdExactly(Set<String> messageIds) {
    return hold(messageIds, false).held();
  }

  private Named hold(Set<String> ids, boolean bySourceIdToo) {
    Duration retention = retention();
    List<Message> received = receiveAll(HOLD);
    long heldElsewhere;
    try {
      // Counted while this read holds what it received: those are among the ones not visible.
      heldElsewhere = Math.max(0, counted() - received.size());
    } catch (RuntimeException e) {
      release(received);
      throw e;
    }
    Map<String, DeadLetter> exact = new LinkedHashMap<>();
    Map<String, List<DeadLetter>> standingFor = new LinkedHashMap<>();
    for (Message message : received) {
      DeadLetter letter = DeadLetter.read(message, retention);
      if (ids.contains(letter.messageId())) {
        exact.put(letter.messageId(), letter);
      } else if (bySourceIdToo && ids.contains(letter.sourceMessageId())) {
        standingFor.computeIfAbsent(letter.sourceMessageId(), id -> new ArrayList<>()).add(letter);
      }
    }
    Map<String, DeadLetter> wanted = new LinkedHashMap<>(exact);
    Map<String, List<String>> ambiguous = new LinkedHashMap<>();
    standingFor.forEach((id, copies) -> {
      if (exact.containsKey(id)) {
        return;
      }
      if (copies.size() == 1) {
        wanted.put(id, copies.getFirst());
      } else {
        ambiguous.put(id, copies.stream().map(DeadLetter::messageId).toList());
      }
    });
    if (!ambiguous.isEmpty()) {
      wanted.clear();
    }
    Set<String> keep = new HashSet<>();
    wanted.values().forEach(letter -> keep.add(letter.messageId()));
    release(received.stream().filter(message -> !keep.contains(message.messageId())).toList());
    return new Named(wanted, ambiguous, heldElsewhere);
  }

  /**
   * Deletes the message with the receipt handle it was read with. SQS deletes only with the newest
   * handle: a message received again since (after this hold ran out) may be refused, or accepted and
   * kept. False if SQS refused; true says only that it accepted.
   */
  boolean delete(DeadLetter letter) {
    try {
      sqs.deleteMessage(r -> r.queueUrl(url).receiptHandle(letter.message().receiptHandle()));
      return true;
    } catch (ReceiptHandleIsInvalidException e) {
      return false;
    }
  }

  /**
   * Every visible message, held for {@code hold}. Long polls: a short poll asks only a sample of SQS's
   * servers and may answer empty while messages are there; a long poll asks them all, so one that brings
   * nothing new ends the read. It costs {@link #LONG_POLL} once a read, when the queue has no more to give.
   * A message that comes round again keeps its newest receipt handle, the only one SQS acts on.
   */
  private List<Message> receiveAll(Duration hold) {
    Map<String, Message> received = new LinkedHashMap<>();
    int fresh;
    do {
      List<Message> batch = sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)
          .waitTimeSeconds((int) LONG_POLL.toSeconds()).visibilityTimeout((int) hold.toSeconds())
          .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
          .messageAttributeNames("All")).messages();
      fresh = 0;
      for (Message message : batch) {
        if (received.put(message.messageId(), message) == null) {
          fresh++;
        }
      }
    } while (fresh > 0);
    return new ArrayList<>(received.values());
  }

  /** Hands held messages back at once, for another reader (or a later run) to receive. */
  void handBack(java.util.Collection<DeadLetter> letters) {
    release(letters.stream().map(DeadLetter::message).toList());
  }

  private void release(List<Message> messages) {
    for (int from = 0; from < messages.size(); from += 10) {
      List<ChangeMessageVisibilityBatchRequestEntry> entries = new ArrayList<>();
      List<Message> slice = messages.subList(from, Math.min(from + 10, messages.size()));
      for (int i = 0; i < slice.size(); i++) {
        entries.add(ChangeMessageVisibilityBatchRequestEntry.builder().id(Integer.toString(i))
            .receiptHandle(slice.get(i).receiptHandle()).visibilityTimeout(0).build());
      }
      sqs.changeMessageVisibilityBatch(r -> r.queueUrl(url).entries(entries));
    }
  }
}
