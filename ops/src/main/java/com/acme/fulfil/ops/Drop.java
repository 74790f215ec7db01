package com.acme.fulfil.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code drop MESSAGE_ID...}: each message is archived whole (body, system and message attributes) to a
 * file of its own, written and flushed to disk, and only then deleted from the DLQ. An id may be the
 * DLQ message's own or the source message's it stands for.
 */
final class Drop {
  private final Stack stack;
  private final Path archive;
  private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  Drop(Stack stack, Path archive) {
    this.stack = stack;
    this.archive = archive;
  }

  Report drop(List<String> messageIds) {
    Set<String> ids = new LinkedHashSet<>(messageIds);
    DeadLetterQueue dlq = new DeadLetterQueue(stack.aws().sqs(), stack.dlqUrl(), stack.budget().dlqRetention());
    Map<String, DeadLetter> held = dlq.hold(ids);
    List<String> lines = new ArrayList<>();
    ObjectNode out = json.createObjectNode();
    var dropped = out.putArray("dropped");
    var missing = out.putArray("not_found");
    for (String id : ids) {
      DeadLetter letter = held.get(id);
      if (letter == null) {
        lines.add("  " + id + ": not in the DLQ (already dropped or redriven?)");
        missing.add(id);
        continue;
      }
      Path file = write(letter);
      dlq.delete(letter);
      lines.add("  " + id + ": archived to " + file + ", deleted from the DLQ");
      dropped.addObject().put("message_id", letter.messageId()).put("archive", file.toString());
    }
    lines.addFirst("dropped " + dropped.size() + " of " + ids.size() + " message(s) from the DLQ of " + stack.description());
    return new Report(lines, out, missing.isEmpty() ? 0 : 1);
  }

  private Path write(DeadLetter letter) {
    ObjectNode document = json.createObjectNode()
        .put("message_id", letter.messageId())
        .put("source_message_id", letter.sourceMessageId())
        .put("dlq_url", stack.dlqUrl())
        .put("body", letter.message().body())
        .put("md5_of_body", letter.message().md5OfBody());
    document.set("attributes", json.valueToTree(letter.message().attributesAsStrings()));
    ObjectNode attributes = document.putObject("message_attributes");
    letter.message().messageAttributes().forEach((name, value) -> attributes.putObject(name)
        .put("data_type", value.dataType()).put("string_value", value.stringValue()));
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
