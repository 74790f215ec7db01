package com.acme.fulfil.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * {@code drop MESSAGE_ID...}: each message is archived whole (body, system attributes, message attributes
 * with their data types, binary values in base64, as SendMessage takes them back) to a file of its own,
 * written and flushed to disk, and only then deleted from the DLQ. A message is reported dropped only
 * once a later receive (a long poll, which asks every SQS server) no longer finds it. An id may be the
 * DLQ message's own, which always wins, or the source message's that exactly one message stands for; a
 * drop with an id that several copies stand for drops nothing.
 * A message {@code dlq} would redrive ({@link DeadLetterVerdict}) is handed back untouched: dropping it
 * loses a good order, so only an explicit override with a reason drops it, and the archive keeps that
 * reason beside the verdict it overrode.
 */
final class Drop {
  /** Kept back from the read's hold: a delete sent later may meet a message that someone received since. */
  private static final Duration HOLD_MARGIN = Duration.ofSeconds(10);
  /** Receives that look for a deleted message, each deleting what it finds with the handle it got. */
  private static final int CONFIRMATIONS = 3;

  private final Stack stack;
  private final Path archive;
  private final DlqSurvey survey;
  /** On-call's reason for dropping messages the verdict would redrive; empty: those are refused. */
  private final Optional<String> override;
  private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  Drop(Stack stack, Path archive, DlqSurvey survey, Optional<String> override) {
    this.stack = stack;
    this.archive = archive;
    this.survey = survey;
    this.override = override;
  }

  Report drop(List<String> messageIds) {
    Set<String> ids = new LinkedHashSet<>(messageIds);
    DeadLetterQueue dlq = new DeadLetterQueue(stack.aws().sqs(), stack.dlqUrl(), stack.budget().dlqRetention());
    long readAt = System.nanoTime();
    DeadLetterQueue.Named named = dlq.hold(ids);
    Map<String, DeadLetter> held = named.held();
    List<String> lines = new ArrayList<>();
    // Every field docs/fulfil-ops.md promises, in every answer: a script reads an empty list, never a missing one.
    ObjectNode out = json.createObjectNode().put("dlq_url", stack.dlqUrl());
    out.putArray("dropped");
    out.putArray("not_dropped");
    out.putArray("not_found");
    out.put("held_elsewhere", named.heldElsewhere());
    ArrayNode ambiguous = out.putArray("ambiguous");
    if (!named.ambiguous().isEmpty()) {
      lines.add("dropped 0 of " + ids.size() + " message(s) from the DLQ of " + stack.description()
          + ": some ids name no one message, so nothing was touched");
      named.ambiguous().forEach((id, copies) -> {
        lines.add("  " + id + ": names no message of its own, and " + copies.size() + " stand for it ("
            + String.join(", ", copies) + "): name the one to drop by its own message id");
        ambiguous.addObject().put("id", id).set("messages", json.valueToTree(copies));
      });
      return new Report(lines, out, 1);
    }
    try {
      return archiveAndDelete(dlq, ids, named, readAt, lines, out);
    } catch (RuntimeException e) {
      // A drop that fails half-way must not hide what it held from dlq for the rest of its hold.
      try {
        dlq.handBack(held.values());
      } catch (RuntimeException handBack) {
        e.addSuppressed(handBack);
      }
      throw e;
    }
  }

  private Report archiveAndDelete(DeadLetterQueue dlq, Set<String> ids, DeadLetterQueue.Named named, long readAt,
      List<String> lines, ObjectNode out) {
    Map<String, DeadLetter> held = named.held();
    ArrayNode dropped = (ArrayNode) out.get("dropped");
    ArrayNode notDropped = (ArrayNode) out.get("not_dropped");
    ArrayNode missing = (ArrayNode) out.get("not_found");
    Map<String, Path> archived = new LinkedHashMap<>();
    List<DeadLetter> toDelete = new ArrayList<>();
    List<DeadLetter> refused = new ArrayList<>();
    for (String id : ids) {
      DeadLetter letter = held.get(id);
      if (letter == null) {
        lines.add("  " + id + ": " + notFound(named.heldElsewhere()));
        missing.add(id);
        continue;
      }
      DeadLetterVerdict verdict = survey.judge(letter).verdict();
      if (!verdict.drop() && override.isEmpty()) {
        String why = "dlq's verdict is redrive: " + verdict.why() + ". To drop it all the same: --force --reason \"...\"";
        lines.add("  " + letter.messageId() + ": NOT dropped, left in the DLQ: " + why);
        notDropped.addObject().put("message_id", letter.messageId()).put("why", why);
        refused.add(letter);
      } else {
        archived.put(letter.messageId(), write(letter, verdict));
        toDelete.add(letter);
      }
    }
    dlq.handBack(refused);
    Map<String, String> failures = deleteAndConfirm(dlq, toDelete, readAt);
    archived.forEach((messageId, file) -> {
      String failure = failures.get(messageId);
      if (failure == null) {
        lines.add("  " + messageId + ": archived to " + file + ", deleted from the DLQ");
        dropped.addObject().put("message_id", messageId).put("archive", file.toString());
      } else {
        lines.add("  " + messageId + ": archived to " + file + ", NOT dropped: " + failure);
        notDropped.addObject().put("message_id", messageId).put("archive", file.toString()).put("why", failure);
      }
    });
    lines.addFirst("dropped " + dropped.size() + " of " + ids.size() + " message(s) from the DLQ of " + stack.description());
    return new Report(lines, out, missing.isEmpty() && notDropped.isEmpty() ? 0 : 1);
  }

  /**
   * Why an id was not found. A message another reader holds (a console poll, another run) cannot be
   * received, so "not found" means "gone" only when SQS counts nothing this read could not see.
   */
  private static String notFound(long heldElsewhere) {
    return heldElsewhere == 0 ? "not in the DLQ: nothing else is held there, so it was dropped or redriven already"
        : "NOT found, and may still be in the DLQ: another reader holds " + heldElsewhere + " of its messages now"
            + " (a console poll, an aws sqs receive-message, another run), and this read cannot see those. Nothing"
            + " was deleted: run drop again once their hold ends";
  }

  /**
   * Deletes each message and looks for it again; the messages not shown gone, each with why. A delete
   * counts only with the newest receipt handle: the read's own while its hold lasts, else the one a
   * later receive returns. A message that receive does not return either is gone or hidden by another
   * reader's receive: only a delete sent with a handle known to be the newest tells which.
   */
  private Map<String, String> deleteAndConfirm(DeadLetterQueue dlq, Collection<DeadLetter> letters, long readAt) {
    Set<String> deleted = new HashSet<>();
    if (System.nanoTime() - readAt < DeadLetterQueue.HOLD.minus(HOLD_MARGIN).toNanos()) {
      letters.stream().filter(dlq::delete).forEach(letter -> deleted.add(letter.messageId()));
    }
    Set<String> pending = new LinkedHashSet<>(letters.stream().map(DeadLetter::messageId).toList());
    Map<String, String> failures = new LinkedHashMap<>();
    for (int look = 0; look < CONFIRMATIONS && !pending.isEmpty(); look++) {
      // By its own id only: a copy standing for the deleted message is not it, and is not to be deleted.
      Map<String, DeadLetter> still = dlq.holdExactly(pending);
      for (String messageId : List.copyOf(pending)) {
        DeadLetter again = still.get(messageId);
        if (again == null) {
          pending.remove(messageId);
          if (!deleted.contains(messageId)) {
            failures.put(messageId, "the read's hold ran out before the delete and another reader holds it now:"
                + " run drop again in a minute");
          }
        } else if (dlq.delete(again)) {
          deleted.add(messageId);
        }
      }
    }
    pending.forEach(messageId -> failures.put(messageId, "still in the DLQ after " + CONFIRMATIONS
        + " deletes: run drop again"));
    return failures;
  }

  private Path write(DeadLetter letter, DeadLetterVerdict verdict) {
    Message message = letter.message();
    ObjectNode document = json.createObjectNode();
    document.putObject("verdict").put("action", verdict.drop() ? "drop" : "redrive").put("why", verdict.why());
    if (!verdict.drop()) {
      document.put("dropped_against_verdict_because", override.orElseThrow());
    }
    document
        .put("message_id", letter.messageId())
        .put("source_message_id", letter.sourceMessageId())
        .put("dlq_url", stack.dlqUrl())
        .put("body", message.body())
        .put("md5_of_body", message.md5OfBody())
        .put("md5_of_message_attributes", message.md5OfMessageAttributes());
    document.set("attributes", json.valueToTree(message.attributesAsStrings()));
    // SendMessage's own shape, so that the file's message_attributes replay as they are.
    ObjectNode attributes = document.putObject("message_attributes");
    message.messageAttributes().forEach((name, value) -> {
      ObjectNode attribute = attributes.putObject(name).put("DataType", value.dataType());
      if (value.stringValue() != null) {
        attribute.put("StringValue", value.stringValue());
      }
      if (value.binaryValue() != null) {
        attribute.put("BinaryValue", Base64.getEncoder().encodeToString(value.binaryValue().asByteArray()));
      }
    });
    try {
      Files.createDirectories(archive);
      Path file = archive.resolve(letter.messageId() + ".json");
      Files.write(file, json.writeValueAsBytes(document), StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE, StandardOpenOption.SYNC);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot archive " + letter.messageId() + " to " + archive + ": nothing deleted", e);
    }
  }
}
