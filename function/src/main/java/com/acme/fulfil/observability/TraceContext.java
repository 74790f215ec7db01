package com.acme.fulfil.observability;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The W3C Trace Context (https://www.w3.org/TR/trace-context/) an order message came with: the trace
 * the producer started for the order and the span that sent it. Only the {@code traceparent} format is
 * read, and Lambda's {@code AWSTraceHeader} (X-Ray), whose root is the same 128-bit trace id written
 * differently; anything else is no trace context at all, never an error.
 *
 * @param traceId 32 lowercase hex digits, not all zero
 * @param parentId the sender's span, 16 lowercase hex digits, not all zero; empty only for an X-Ray
 *     header that names no parent (the first hop of a trace), since a traceparent always has one
 * @param flags 2 lowercase hex digits; bit 0 is "sampled"
 */
public record TraceContext(String traceId, Optional<String> parentId, String flags) {
  /** The SQS system attribute X-Ray's propagation sets, which Lambda's event carries among the record's attributes. */
  public static final String AWS_TRACE_HEADER = "AWSTraceHeader";

  private static final Pattern TRACEPARENT_FORMAT =
      Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?", Pattern.DOTALL);
  private static final Pattern XRAY_ROOT = Pattern.compile("1-([0-9a-f]{8})-([0-9a-f]{24})");
  private static final Pattern TRACE_ID = Pattern.compile("[0-9a-f]{32}");
  private static final Pattern SPAN_ID = Pattern.compile("[0-9a-f]{16}");
  private static final Pattern FLAGS = Pattern.compile("[0-9a-f]{2}");
  private static final String ZERO_TRACE = "0".repeat(32);
  private static final String ZERO_SPAN = "0".repeat(16);
  private static final String VERSION = "00";
  /**
   * Not ThreadLocalRandom: its seeds would be in the SnapStart snapshot, and every environment restored
   * from it would draw the same span ids. SecureRandom is what UUID.randomUUID draws from, unique after a restore.
   */
  private static final SecureRandom SPANS = new SecureRandom();

  public TraceContext {
    if (parentId == null || !valid(traceId, parentId, flags)) {
      throw new IllegalArgumentException("not a W3C trace context: " + traceId + ", " + parentId + ", " + flags);
    }
  }

  /**
   * A {@code traceparent} value as W3C Trace Context level 1 defines it: {@code version-traceid-parentid-flags},
   * lowercase hex. Version {@code ff} is invalid; version {@code 00} has exactly those four fields; a later
   * version may add fields after another dash, which are ignored, as the recommendation asks.
   */
  public static Optional<TraceContext> fromTraceparent(String value) {
    if (value == null) {
      return Optional.empty();
    }
    var parts = TRACEPARENT_FORMAT.matcher(value);
    if (!parts.matches()) {
      return Optional.empty();
    }
    String version = parts.group(1);
    if (version.equals("ff") || (version.equals(VERSION) && parts.group(5) != null)) {
      return Optional.empty();
    }
    return of(parts.group(2), Optional.of(parts.group(3)), parts.group(4));
  }

  /**
   * An X-Ray trace header ({@code Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1}):
   * the root's epoch and unique parts are the W3C trace id's 32 digits, {@code Parent} is the span,
   * {@code Sampled=1} the sampled flag. Root is required; Parent is not: X-Ray's own header of a trace's
   * first hop is {@code Root=...;Sampled=1}, and the requests sent for the order are new spans anyway.
   * Other keys are ignored.
   */
  public static Optional<TraceContext> fromAwsTraceHeader(String value) {
    if (value == null) {
      return Optional.empty();
    }
    String root = null;
    String parent = null;
    boolean sampled = false;
    for (String field : value.split(";")) {
      int equals = field.indexOf('=');
      if (equals < 0) {
        continue;
      }
      String key = field.substring(0, equals).strip();
      String fieldValue = field.substring(equals + 1).strip();
      switch (key) {
        case "Root" -> root = fieldValue;
        case "Parent" -> parent = fieldValue;
        case "Sampled" -> sampled = fieldValue.equals("1");
        default -> { }
      }
    }
    if (root == null) {
      return Optional.empty();
    }
    var rootParts = XRAY_ROOT.matcher(root);
    if (!rootParts.matches()) {
      return Optional.empty();
    }
    return of(rootParts.group(1) + rootParts.group(2), Optional.ofNullable(parent), sampled ? "01" : "00");
  }

  /**
   * A new span of the same trace, for a request this function sends on the order's behalf: same trace
   * id and flags, a random span id. The partner sees it as a call made within the producer's trace.
   */
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

  /** An all-zero id is the recommendation's "invalid", however well formed. */
  private static boolean valid(String traceId, Optional<String> parentId, String flags) {
    return TRACE_ID.matcher(traceId).matches() && !traceId.equals(ZERO_TRACE)
        && parentId.map(span -> SPAN_ID.matcher(span).matches() && !span.equals(ZERO_SPAN)).orElse(true)
        && FLAGS.matcher(flags).matches();
  }
}
