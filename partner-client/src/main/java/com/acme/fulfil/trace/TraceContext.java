package com.acme.fulfil.trace;

import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The W3C Trace Context (https://www.w3.org/TR/trace-context/) an order message came with, from a {@code traceparent}
 * or Lambda's X-Ray {@code AWSTraceHeader}; anything else is no trace context at all, never an error.
 *
 * @param traceId 32 lowercase hex digits, not all zero
 * @param parentId the sender's span, 16 lowercase hex digits, not all zero; empty for an X-Ray header without one
 * @param flags 2 lowercase hex digits; bit 0 is "sampled"
 */
public record TraceContext(String traceId, Optional<String> parentId, String flags) {
  private static final Pattern TRACEPARENT =
      Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?", Pattern.DOTALL);
  private static final Pattern XRAY_ROOT = Pattern.compile("1-([0-9a-f]{8})-([0-9a-f]{24})");
  private static final Pattern HEX = Pattern.compile("[0-9a-f]*");
  private static final String VERSION = "00";
  /**
   * Not ThreadLocalRandom, whose seeds would be in the SnapStart snapshot: every environment restored from it
   * would draw the same span ids. SecureRandom, which UUID.randomUUID draws from, stays unique after a restore.
   */
  private static final SecureRandom SPANS = new SecureRandom();

  public TraceContext {
    if (parentId == null || !valid(traceId, parentId, flags)) {
      throw new IllegalArgumentException("not a W3C trace context: " + traceId + ", " + parentId + ", " + flags);
    }
  }

  /**
   * The trace an SQS message came in, as the function and on-call's command both read it: the producer's
   * {@code traceparent} attribute when the message has one (valid or not: an invalid one is not replaced), else the
   * X-Ray header SQS keeps.
   *
   * @param traceparent the message's {@code traceparent} attribute if it has one: its string value, empty text if it
   *     has none
   * @param awsTraceHeader the message's {@code AWSTraceHeader} system attribute, which X-Ray's propagation sets and
   *     Lambda's event carries among the record's attributes; null if it has none
   */
  public static Optional<TraceContext> fromMessage(Optional<String> traceparent, String awsTraceHeader) {
    return traceparent.isPresent() ? fromTraceparent(traceparent.get()) : fromAwsTraceHeader(awsTraceHeader);
  }

  /**
   * A {@code traceparent} of W3C Trace Context level 1. Version {@code ff} is invalid and {@code 00} has exactly
   * four fields; a later version's fields after another dash are ignored, as the recommendation asks.
   */
  public static Optional<TraceContext> fromTraceparent(String value) {
    var parts = TRACEPARENT.matcher(value == null ? "" : value);
    if (!parts.matches() || parts.group(1).equals("ff") || (parts.group(1).equals(VERSION) && parts.group(5) != null)) {
      return Optional.empty();
    }
    return of(parts.group(2), Optional.of(parts.group(3)), parts.group(4));
  }

  /**
   * An X-Ray header ({@code Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1}), whose
   * root is the trace id. Parent is optional: a trace's first hop has none, and the order's requests are new spans.
   */
  public static Optional<TraceContext> fromAwsTraceHeader(String value) {
    Map<String, String> fields = new HashMap<>();
    for (String field : (value == null ? "" : value).split(";")) {
      String[] pair = field.split("=", 2);
      if (pair.length == 2) {
        fields.put(pair[0].strip(), pair[1].strip());
      }
    }
    var root = XRAY_ROOT.matcher(fields.getOrDefault("Root", ""));
    String flags = "1".equals(fields.get("Sampled")) ? "01" : "00";
    return root.matches()
        ? of(root.group(1) + root.group(2), Optional.ofNullable(fields.get("Parent")), flags) : Optional.empty();
  }

  /** A new span of the same trace, for a request this function sends on the order's behalf. */
  public TraceContext child() {
    long span;
    do {
      span = SPANS.nextLong();
    } while (span == 0);
    return new TraceContext(traceId, Optional.of(HexFormat.of().toHexDigits(span)), flags);
  }

  /** The {@code traceparent} header value, version 00: only a context with a parent span has one. */
  public String traceparent() {
    return VERSION + "-" + traceId + "-" + parentId.orElseThrow() + "-" + flags;
  }

  private static Optional<TraceContext> of(String traceId, Optional<String> parentId, String flags) {
    return valid(traceId, parentId, flags) ? Optional.of(new TraceContext(traceId, parentId, flags)) : Optional.empty();
  }

  private static boolean valid(String traceId, Optional<String> parentId, String flags) {
    return id(traceId, 32) && parentId.map(span -> id(span, 16)).orElse(true)
        && flags.length() == 2 && HEX.matcher(flags).matches();
  }

  /** An all-zero id is the recommendation's "invalid", however well formed. */
  private static boolean id(String value, int digits) {
    return value.length() == digits && HEX.matcher(value).matches() && !value.equals("0".repeat(digits));
  }
}
