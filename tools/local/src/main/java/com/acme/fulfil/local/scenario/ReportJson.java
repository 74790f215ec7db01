package com.acme.fulfil.local.scenario;

import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.alarm.AlarmOutcome;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The report for scripts and CI: a JSON array, one object per configuration. Counts use the text
 * report's names in snake_case ({@code orders}, {@code booked_once}, {@code booked_twice_or_more},
 * {@code dlq}, {@code queued}, {@code lost}); durations are local seconds, with {@code _real_seconds}
 * twins at full scale, but for the send-to-booking of the booked orders: only its partner's share ({@code
 * send_to_booking_partner_}) has the twins, while the whole ({@code send_to_booking_}) and the rest ({@code
 * send_to_booking_rest_}) hold this machine's own work, which does not scale. {@code dlq} is null for a configuration without a DLQ. {@code
 * capacity_orders_per_hour} and {@code offered_orders_per_hour} are real-world rates. {@code
 * transient_failures} counts failed tries by cause (absent for the incident's function, which logs no
 * cause); {@code outage_recovery}, on a day the partner goes down, describes the orders that met it.
 * {@code alarms} holds each of the stack's alarms as played on the run, with the local and real times
 * it fired at.
 */
public final class ReportJson {
  private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private final TimeScale scale;
  private final ScenarioSettings settings;

  public ReportJson(TimeScale scale, ScenarioSettings settings) {
    this.scale = scale;
    this.settings = settings;
  }

  public void write(List<DeploymentReport> reports, Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    json.writeValue(file.toFile(), toJson(reports));
  }

  ArrayNode toJson(List<DeploymentReport> reports) {
    ArrayNode array = json.createArrayNode();
    reports.forEach(r -> array.add(toJson(r)));
    return array;
  }

  private ObjectNode toJson(DeploymentReport r) {
    ObjectNode o = json.createObjectNode();
    o.put("configuration", r.configuration());
    o.put("title", r.title());
    o.put("max_concurrency", r.maxConcurrency());
    o.put("batch_size", r.batchSize());
    o.put("capacity_orders_per_hour", r.capacityOrdersPerHour());
    o.put("offered_orders_per_hour", r.offeredOrdersPerHour());
    o.put("orders", r.orders());
    o.put("never_bookable", r.poisonOrders());
    o.put("booked_once", r.bookedOnce());
    o.put("booked_twice_or_more", r.bookedTwiceOrMore());
    o.put("bookings", r.bookings());
    o.put("partner_booking_requests", r.partnerCalls().bookings());
    o.put("partner_lookups", r.partnerCalls().lookups());
    if (r.dlq().isPresent()) {
      o.put("dlq", r.dlq().get());
    } else {
      o.putNull("dlq");
    }
    ObjectNode reasons = o.putObject("dlq_reasons");
    r.dlqReasons().forEach(reasons::put);
    o.put("queued", r.queued());
    o.put("queue_depth", r.queueDepth());
    o.put("lost", r.lost());
    o.put("receives_per_good_order_mean", r.goodReceives().mean());
    o.put("receives_per_good_order_max", r.goodReceives().max());
    o.put("receives_per_never_bookable_mean", r.neverBookableReceives().mean());
    o.put("receives_per_never_bookable_max", r.neverBookableReceives().max());
    o.put("stale_deletes", r.staleDeletes());
    o.put("timed_out_invocations", r.timedOutInvocations());
    o.put("failed_invocations", r.failedInvocations());
    r.sendToBooking().ifPresent(s -> {
      localSpread(o, "send_to_booking", s.all());
      spread(o, "send_to_booking_partner", s.partner());
      localSpread(o, "send_to_booking_rest", s.rest());
    });
    r.neverBookableToDlq().ifPresent(s -> spread(o, "never_bookable_to_dlq", s));
    r.transientFailures().ifPresent(byCause -> {
      ObjectNode causes = o.putObject("transient_failures");
      byCause.forEach((cause, n) -> causes.put(cause.key(), n));
    });
    r.recovery().ifPresent(m -> {
      ObjectNode met = o.putObject("outage_recovery");
      met.put("orders", m.orders());
      met.put("unbooked", m.unbooked());
      m.backlogBookedAfter().ifPresent(d -> seconds(met, "backlog_booked_after", d));
      m.sendToBooking().ifPresent(s -> spread(met, "send_to_booking", s));
      met.put("receives_per_order_mean", m.receives().mean());
      met.put("receives_per_order_max", m.receives().max());
    });
    o.put("most_waiting", r.mostWaiting());
    ArrayNode alarms = o.putArray("alarms");
    r.alarms().forEach(alarm -> alarms.add(toJson(alarm)));
    o.put("settled", r.settledAfter().isPresent());
    r.settledAfter().ifPresent(d -> seconds(o, "settled_after", d));
    seconds(o, "ran", r.ran());
    o.put("time_scale_divisor", scale.divisor());
    o.put("partner_mode", settings.partnerDay().option());
    o.put("seed", settings.seed());
    return o;
  }

  /** One alarm: {@code applies} false (and {@code why_not}) where the configuration cannot have it. */
  private ObjectNode toJson(AlarmOutcome alarm) {
    ObjectNode o = json.createObjectNode();
    o.put("name", alarm.name());
    o.put("threshold", alarm.threshold());
    o.put("applies", alarm.notApplicable().isEmpty());
    alarm.notApplicable().ifPresent(why -> o.put("why_not", why));
    o.put("fired", alarm.fired());
    ArrayNode firings = o.putArray("firings");
    alarm.firings().forEach(firing -> {
      ObjectNode f = firings.addObject();
      seconds(f, "fired_after", firing.firedAt());
      firing.clearedAt().ifPresent(at -> seconds(f, "cleared_after", at));
    });
    return o;
  }

  private void spread(ObjectNode o, String name, DeploymentReport.Spread spread) {
    seconds(o, name + "_p50", spread.p50());
    seconds(o, name + "_p95", spread.p95());
    seconds(o, name + "_max", spread.max());
  }

  /** Local seconds with no real-world twin: figures this machine's own work is part of ({@link ReportText}). */
  private static void localSpread(ObjectNode o, String name, DeploymentReport.Spread spread) {
    o.put(name + "_p50_seconds", Durations.seconds(spread.p50()));
    o.put(name + "_p95_seconds", Durations.seconds(spread.p95()));
    o.put(name + "_max_seconds", Durations.seconds(spread.max()));
  }

  private void seconds(ObjectNode o, String name, Duration local) {
    o.put(name + "_seconds", Durations.seconds(local));
    o.put(name + "_real_seconds", Durations.seconds(scale.toReal(local)));
  }
}
