package com.acme.fulfil.contract.settings;

import java.util.List;

/**
 * The CDK context keys the stack reads that on-call relies on. Every one lives in infra/cdk.json's
 * context, the one committed place that {@code cdk synth}, the deploy workflow (the one way to deploy) and
 * {@code ./fulfil-ops check} all read; synth refuses a context without one, so no deploy can undo one.
 * {@code visibilityTimeoutSeconds}, {@code maxReceiveCount} and {@code idempotencyTtlDays} are left out on purpose: they follow
 * from the others unless set there too.
 */
public final class OnCallSettings {
  /** The partner's https:// base URL: the partner's API key goes with every request to it. */
  public static final String PARTNER_BASE_URL = "partnerBaseUrl";
  /** The complete ARN of the secret that holds the partner's API key: the stack reads it, never creates one. */
  public static final String PARTNER_API_KEY_SECRET_ARN = "partnerApiKeySecretArn";
  /** On-call's address, subscribed to the alarm topic. */
  public static final String ALARM_EMAIL = "alarmEmail";
  /** Whether the event source mapping runs: false while on-call keeps it paused (the runbook's "Partner outage"). */
  public static final String MAPPING_ENABLED = "mappingEnabled";
  public static final String MAX_CONCURRENCY = "maxConcurrency";
  public static final String FUNCTION_MEMORY_MB = "functionMemoryMb";
  public static final String LOG_LEVEL = "logLevel";
  public static final String ACTIVE_TRACING = "activeTracing";

  /** The timing numbers that do not follow from others (TimingBudget reads them). */
  public static final List<String> TIMING = List.of("partnerWorstCaseSeconds", "partnerLookupTimeoutSeconds",
      "partnerDeadlineMarginSeconds", "functionTimeoutSeconds", "batchingWindowSeconds", "batchSize", "recordConcurrency",
      "retryHorizonSeconds", "sourceRetentionDays", "dlqRetentionDays");

  public static final List<String> ALL = java.util.stream.Stream.concat(TIMING.stream(),
      java.util.stream.Stream.of(PARTNER_BASE_URL, PARTNER_API_KEY_SECRET_ARN, ALARM_EMAIL, MAPPING_ENABLED, MAX_CONCURRENCY,
          FUNCTION_MEMORY_MB, LOG_LEVEL, ACTIVE_TRACING)).toList();

  /** The timing numbers that follow from the others unless set: a deploy may still set them with {@code -c}. */
  public static final List<String> FOLLOWING = List.of("visibilityTimeoutSeconds", "maxReceiveCount", "idempotencyTtlDays");

  /** What a deploy records in its template ({@link #DEPLOYED_WITH}) and check compares with the committed file. */
  public static final List<String> RECORDED =
      java.util.stream.Stream.concat(ALL.stream(), FOLLOWING.stream()).toList();

  /**
   * The key of the stack template's metadata under which a deploy records the value it read for each setting
   * of {@link #RECORDED} that it was given ({@code -c} values included), as text:
   * {@code ./fulfil-ops check} compares them with the committed file, which CloudFormation's drift detection,
   * comparing resources with that template, cannot do.
   */
  public static final String DEPLOYED_WITH = "FulfilOrderSettings";

  /** The levels the function's FULFIL_LOG_LEVEL takes. */
  public static final List<String> LOG_LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR");

  private OnCallSettings() {}
}
