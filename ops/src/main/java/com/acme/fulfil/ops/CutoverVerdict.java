package com.acme.fulfil.ops;

import com.acme.fulfil.contract.timing.CutoverQuietTime;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What {@code cutover} makes of the mappings on orders-to-fulfil before the first deploy: whether the old
 * setup still takes orders, and when nothing it started can still be booked, so that a lookup proves "not
 * booked" (docs/deploy.md, "First deploy: cutover from the old setup"). No mapping at all proves nothing:
 * nothing here can say when a deleted one stopped.
 */
final class CutoverVerdict {
  private static final String SECTION = "docs/deploy.md, \"First deploy: cutover from the old setup\"";

  private CutoverVerdict() {}

  /** @param queueVisibility the queue's visibility timeout, as the old mappings read it */
  static Report of(String queueUrl, Duration queueVisibility, List<OldMapping> mappings, Duration lateBookingHold,
      Instant now) {
    List<String> lines = new ArrayList<>();
    ObjectNode json = new ObjectMapper().createObjectNode().put("queue_url", queueUrl).putNull("dlq_url");
    ArrayNode listed = json.putArray("mappings");
    lines.add(queueUrl + ": " + mappings.size() + " event source mapping" + (mappings.size() == 1 ? "" : "s") + " read it");
    for (OldMapping mapping : mappings) {
      lines.add("  " + mapping.uuid() + " -> " + mapping.functionArn() + ": " + mapping.state() + " since "
          + mapping.lastModified() + " (function timeout " + mapping.functionTimeout().toSeconds() + " s)");
      listed.addObject().put("uuid", mapping.uuid()).put("function_arn", mapping.functionArn())
          .put("state", mapping.state()).put("last_modified", mapping.lastModified().toString())
          .put("function_timeout_seconds", mapping.functionTimeout().toSeconds());
    }
    Optional<Instant> quietFrom = quietFrom(mappings, queueVisibility, lateBookingHold);
    json.put("quiet_from", quietFrom.map(Instant::toString).orElse(null));
    boolean quiet = quietFrom.filter(from -> !now.isBefore(from)).isPresent();
    json.put("quiet", quiet);
    if (mappings.isEmpty()) {
      lines.add("No mapping reads it, and nothing here can say when the old one stopped: if one was deleted, wait "
          + queueVisibility.toSeconds() + " s (the queue's visibility timeout), its function's timeout and "
          + lateBookingHold.toSeconds() + " s from its deletion before anything looks an order up (" + SECTION + ").");
    } else if (quietFrom.isEmpty()) {
      lines.add("Still handing out orders: " + String.join(", ", mappings.stream().filter(m -> !m.disabled())
          .map(OldMapping::uuid).toList()) + ". ./fulfil-ops cutover --go disables them; the tries already running go on"
          + " to their end.");
    } else if (!quiet) {
      lines.add("Quiet from " + quietFrom.get() + ", in " + Duration.between(now, quietFrom.get()).toSeconds()
          + " s: until then a booking an old try asked for may still appear at the partner. Deploy nothing before;"
          + " run this again then.");
    } else {
      lines.add("Quiet since " + quietFrom.get() + ": every booking an old try can have asked for has appeared, so a"
          + " lookup proves what it says. Next, in this order (" + SECTION + "): delete the old mapping"
          + (mappings.size() == 1 ? "" : "s") + " and function,");
      mappings.forEach(m -> lines.add("  aws lambda delete-event-source-mapping --uuid " + m.uuid()));
      mappings.stream().map(OldMapping::unqualifiedFunctionArn).distinct()
          .forEach(function -> lines.add("  aws lambda delete-function --function-name " + function));
      lines.add("then give the queues the stack's settings, and deploy with --import-existing-resources.");
    }
    return new Report(lines, json, quiet ? 0 : 1);
  }

  /**
   * When every mapping is Disabled: the latest moment a try one of them handed out can have ended, plus the
   * late-booking hold ({@link CutoverQuietTime}, each mapping with its own function's timeout).
   */
  private static Optional<Instant> quietFrom(List<OldMapping> mappings, Duration queueVisibility, Duration lateBookingHold) {
    if (mappings.isEmpty() || !mappings.stream().allMatch(OldMapping::disabled)) {
      return Optional.empty();
    }
    return mappings.stream()
        .map(m -> new CutoverQuietTime(queueVisibility, m.functionTimeout(), lateBookingHold).lookupsSafeFrom(m.lastModified()))
        .max(Comparator.naturalOrder());
  }
}
