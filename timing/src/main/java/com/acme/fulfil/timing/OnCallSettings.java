package com.acme.fulfil.timing;

import java.util.List;

/**
 * The CDK context keys the stack reads that on-call may change. Every one lives in infra/cdk.json's
 * context, the one committed place that {@code cdk synth}, the deploy workflow and {@code ./fulfil-ops
 * check} all read, so a deploy cannot silently put back a value someone changed with {@code -c}.
 * {@code visibilityTimeoutSeconds}, {@code maxReceiveCount} and {@code idempotencyTtlDays} are left out on purpose: they follow
 * from the others unless set there too.
 */
public final class OnCallSettings {
  public static final String MAX_CONCURRENCY = "maxConcurrency";
  public static final String FUNCTION_MEMORY_MB = "functionMemoryMb";
  public static final String LOG_LEVEL = "logLevel";
  public static final String ACTIVE_TRACING = "activeTracing";

  /** The timing numbers that do not follow from others (TimingBudget reads them). */
  public static final List<String> TIMING = List.of("partnerWorstCaseSeconds", "partnerLookupTimeoutSeconds",
      "partnerDeadlineMarginSeconds", "functionTimeoutSeconds", "batchingWindowSeconds", "batchSize", "recordConcurrency",
      "retryHorizonSeconds", "sourceRetentionDays", "dlqRetentionDays");

  public static final List<String> ALL = java.util.stream.Stream.concat(TIMING.stream(),
      java.util.stream.Stream.of(MAX_CONCURRENCY, FUNCTION_MEMORY_MB, LOG_LEVEL, ACTIVE_TRACING)).toList();

  /** The levels the function's FULFIL_LOG_LEVEL takes. */
  public static final List<String> LOG_LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR");

  private OnCallSettings() {}
}
