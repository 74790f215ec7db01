package com.acme.fulfil.ops;

import com.acme.fulfil.contract.records.OrderRecordLayout;
import com.acme.fulfil.partner.Deadline;
import com.acme.fulfil.partner.PartnerClient;
import com.acme.fulfil.partner.PartnerException;
import com.acme.fulfil.partner.Shipment;
import com.acme.fulfil.secrets.ApiKeySource;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * {@code order ORDER_ID}: everything known about one order in one place: its record (tries, the last
 * outcome and why, the last booking request, the booking), what the partner has booked for it (a lookup
 * books nothing), the function's recent log lines for it, and what that adds up to.
 */
final class OrderStory {
  private static final Duration LOOKUP_BUDGET = Duration.ofSeconds(10);
  private static final Duration LOG_WINDOW = Duration.ofDays(3);

  private final Stack stack;
  private final Clock clock;
  private final ObjectMapper json = new ObjectMapper();

  OrderStory(Stack stack, Clock clock) {
    this.stack = stack;
    this.clock = clock;
  }

  Report tell(String orderId) {
    Instant now = clock.instant();
    Optional<OrderRecord> record = OrderRecord.read(stack, orderId);
    PartnerAnswer partner = lookUp(orderId);
    FunctionLogs logs = new FunctionLogs(stack);
    List<String> logLines = logs.lines(orderId, now.minus(LOG_WINDOW));

    List<String> lines = new ArrayList<>();
    ObjectNode out = json.createObjectNode().put("order_id", orderId);
    lines.add("order " + orderId + " (" + stack.description() + ")");
    record.ifPresentOrElse(r -> describe(r, now, lines, out.putObject("record")), () -> {
      lines.add("  record   none: no try has claimed this order (not delivered yet, or its message is not a valid order:"
          + " ./fulfil-ops dlq shows why)");
      out.putNull("record");
    });
    ArrayNode bookings = out.putArray("partner_bookings");
    partner.shipments().forEach(s -> bookings.add(json.valueToTree(s)));
    partner.failure().ifPresentOrElse(f -> {
      lines.add("  partner  lookup failed: " + f);
      out.put("partner_lookup_failure", f);
    }, () -> {
      out.putNull("partner_lookup_failure");
      lines.add("  partner  " + switch (partner.shipments().size()) {
        case 0 -> "no booking for this order";
        case 1 -> "1 booking: " + shipment(partner.shipments().getFirst());
        default -> partner.shipments().size() + " bookings: " + String.join("; ",
            partner.shipments().stream().map(OrderStory::shipment).toList());
      });
    });
    boolean booked = partner.shipments().size() > 0 || record.map(OrderRecord::booked).orElse(false);
    Optional<Instant> nextTry = booked ? Optional.empty() : FunctionLogs.nextTryAt(logLines);
    nextTry.ifPresentOrElse(at -> {
      lines.add("  next try " + (at.isAfter(now)
          ? "about " + at + " (in " + Duration.between(now, at).toSeconds() + " s), as its last failed try set it"
          : "due since " + at + ": its message is back in the queue, or in the DLQ if that try was its last receive"));
      out.put("next_try_at", at.toString());
    }, () -> out.putNull("next_try_at"));
    List<String> traces = FunctionLogs.traceIds(logLines);
    out.putArray("trace_ids").addAll(traces.stream().map(json.getNodeFactory()::textNode).toList());
    if (logs.available()) {
      lines.add("  trace    " + (traces.isEmpty() ? "none on its log lines (no valid traceparent on its message)"
          : String.join(", ", traces) + " (the producer's trace, from its log lines)"));
      lines.add("  logs     " + logLines.size() + " line(s) in the last " + LOG_WINDOW.toDays() + " days"
          + (logLines.isEmpty() ? "" : ":"));
      logLines.forEach(line -> lines.add("    " + line));
    } else {
      lines.add("  logs     not kept by the local stack: the ./run-local --serve terminal shows the function's lines");
    }
    ArrayNode logsJson = out.putArray("log_lines");
    logLines.forEach(logsJson::add);
    List<String> otherCase = record.isEmpty() && partner.shipments().isEmpty() ? recordedInOtherCase(orderId) : List.of();
    String verdict = verdict(record, partner, nextTry, now)
        + (record.isEmpty() && partner.shipments().isEmpty() ? caseNote(otherCase) : "");
    lines.add("  verdict  " + verdict);
    out.put("verdict", verdict);
    // More than one booking at the partner is what this project exists to prevent, a verdict without the
    // partner's answer is no verdict, a booking the partner does not have is no booking, and an id known
    // only in another case was mistyped: a script must see each.
    boolean lost = record.map(OrderRecord::booked).orElse(false) && partner.failure().isEmpty() && partner.shipments().isEmpty();
    return new Report(lines, out,
        partner.shipments().size() > 1 || partner.failure().isPresent() || lost || !otherCase.isEmpty() ? 1 : 0);
  }

  private void describe(OrderRecord r, Instant now, List<String> lines, ObjectNode out) {
    out.put("key", r.key()).put("status", r.status()).put("tries", r.tries());
    r.lastTryAt().ifPresent(t -> out.put("last_try_at", t.toString()));
    r.lastOutcome().ifPresent(o -> out.put("last_outcome", o));
    r.lastReason().ifPresent(o -> out.put("last_reason", o));
    r.lastPostAt().ifPresent(t -> out.put("last_post_at", t.toString()));
    r.heldUntil().ifPresent(t -> out.put("held_until", t.toString()));
    out.put("expires_at", r.expiresAt().toString());
    r.booking().ifPresent(b -> out.set("booking", b));
    lines.add("  record   " + r.state(now) + ", " + r.tries() + " tr" + (r.tries() == 1 ? "y" : "ies")
        + r.lastTryAt().map(t -> ", last try " + t).orElse("")
        + r.lastPostAt().map(t -> ", last booking request " + t).orElse(", no booking request sent"));
    r.lastOutcome().ifPresent(o -> lines.add("           last outcome: " + o + r.lastReason().map(reason -> ": " + reason).orElse("")));
    r.booking().ifPresent(b -> lines.add("           booking: shipment " + b.path("shipmentId").asText() + ", "
        + b.path("courier").asText() + ", tracking " + b.path("trackingNumber").asText() + " ("
        + b.path("source").asText().toLowerCase() + ")"));
    if (r.heldAt(now)) {
      lines.add("           held by a try until " + r.heldUntil().orElseThrow() + ": no other try books it before then");
    }
  }

  private static String verdict(Optional<OrderRecord> record, PartnerAnswer partner, Optional<Instant> nextTry, Instant now) {
    int booked = partner.shipments().size();
    if (booked > 1) {
      return "booked " + booked + " times at the partner: cancel all but " + partner.shipments().getFirst().shipmentId()
          + " with the partner";
    }
    // Without the partner's answer no verdict holds: the record may miss a booking, or name one the partner lost.
    return partner.failure().map(failure -> "not known: the partner could not be asked (" + failure + "). The record"
        + " says: " + recordVerdict(record, partner, nextTry, now) + ". Run this again once the partner answers")
        .orElseGet(() -> recordVerdict(record, partner, nextTry, now));
  }

  /** The verdict from the record, the logs and the partner's bookings, as far as the partner was asked. */
  private static String recordVerdict(Optional<OrderRecord> record, PartnerAnswer partner, Optional<Instant> nextTry,
      Instant now) {
    int booked = partner.shipments().size();
    if (record.isPresent() && record.get().booked()) {
      return partner.failure().isPresent() ? "booked" : booked == 1 ? "booked once"
          : "recorded as booked but the partner has no booking for it: ask the partner whether it cancelled or lost"
              + " the booking the record names, before anything is sent again";
    }
    if (booked == 1) {
      return "booked once at the partner; the record will say so when the next try (or a redrive) adopts it";
    }
    if (record.isPresent() && record.get().heldAt(now)) {
      return "not booked yet; a try holds it (or may still be booking) until " + record.get().heldUntil().orElseThrow();
    }
    if (nextTry.isPresent() && nextTry.get().isAfter(now)) {
      return "not booked yet; its message returns for the next try about " + nextTry.get();
    }
    if (record.isEmpty()) {
      // An invalid message never claims its order: only the DLQ's label can tell "not delivered" from "poison".
      return "not booked, and no try has claimed it: it is not delivered yet, or its message is not a valid order;"
          + " ./fulfil-ops dlq says which, and whether to drop or redrive it";
    }
    if (record.get().lastOutcome().filter(OrderRecordLayout.PARTNER_REJECTED::equals).isPresent()) {
      return "not booked: the partner refused it as sent; its dead letter's verdict is drop: "
          + DeadLetterVerdict.permanent(OrderRecordLayout.PARTNER_REJECTED) + " (./fulfil-ops dlq names its message)";
    }
    return "not booked: if its message is in the DLQ, redrive it once the cause of its last failure is fixed"
        + " (./fulfil-ops dlq)";
  }

  /**
   * Order ids are case-sensitive: an id typed in the wrong case finds nothing under its own key (an MD5
   * of the id). The same id in upper or lower case, where a record exists under it.
   */
  private List<String> recordedInOtherCase(String orderId) {
    return Stream.of(orderId.toUpperCase(Locale.ROOT), orderId.toLowerCase(Locale.ROOT))
        .filter(variant -> !variant.equals(orderId)).distinct()
        .filter(variant -> OrderRecord.read(stack, variant).isPresent()).toList();
  }

  private static String caseNote(List<String> otherCase) {
    return otherCase.isEmpty() ? ". Order ids are case-sensitive: check this one's case against the order message"
        : ". Order ids are case-sensitive, and nothing is known under this one; a record exists under "
            + String.join(" and ", otherCase) + ": run ./fulfil-ops order " + otherCase.getFirst();
  }

  private static String shipment(Shipment s) {
    return s.shipmentId() + " (" + s.courier() + ", tracking " + s.trackingNumber() + ")";
  }

  private record PartnerAnswer(List<Shipment> shipments, Optional<String> failure) {}

  private PartnerAnswer lookUp(String orderId) {
    PartnerClient partner = new PartnerClient(PartnerClient.httpClient(), stack.partnerBaseUrl(),
        new ApiKeySource(stack.aws().secrets(), stack.secretId()), json);
    try {
      return new PartnerAnswer(partner.lookup(orderId, "fulfil-ops-" + UUID.randomUUID(), Optional.empty(), Deadline.in(LOOKUP_BUDGET)),
          Optional.empty());
    } catch (PartnerException | com.acme.fulfil.secrets.SecretUnavailableException e) {
      return new PartnerAnswer(List.of(), Optional.of(e.getMessage()));
    }
  }
}
