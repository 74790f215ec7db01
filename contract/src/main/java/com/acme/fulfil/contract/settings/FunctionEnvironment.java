package com.acme.fulfil.contract.settings;

import com.acme.fulfil.contract.records.MetricNames;
import java.util.Map;

/**
 * The names of the environment variables the fulfil-order function reads at start-up. The CDK stack
 * and the local run write them, the function reads them: one list keeps the three in step.
 */
public final class FunctionEnvironment {
  public static final String IDEMPOTENCY_TABLE_NAME = "IDEMPOTENCY_TABLE_NAME";
  public static final String PARTNER_BASE_URL = "PARTNER_BASE_URL";
  public static final String PARTNER_API_KEY_SECRET_ID = "PARTNER_API_KEY_SECRET_ID";
  public static final String PARTNER_DEADLINE_MARGIN_MS = "PARTNER_DEADLINE_MARGIN_MS";
  public static final String PARTNER_WORST_CASE_MS = "PARTNER_WORST_CASE_MS";
  public static final String PARTNER_LOOKUP_TIMEOUT_MS = "PARTNER_LOOKUP_TIMEOUT_MS";
  public static final String PARTNER_LATE_BOOKING_HOLD_MS = "PARTNER_LATE_BOOKING_HOLD_MS";
  public static final String RECORD_CONCURRENCY = "RECORD_CONCURRENCY";
  public static final String MAX_RECEIVE_COUNT = "MAX_RECEIVE_COUNT";
  public static final String IDEMPOTENCY_TTL_SECONDS = "IDEMPOTENCY_TTL_SECONDS";
  /** The retry schedule ({@code RetrySchedule}): how long a failed try's message waits before it returns. */
  public static final String RETRY_FIRST_BACKOFF_MS = "RETRY_FIRST_BACKOFF_MS";
  public static final String RETRY_LONGEST_BACKOFF_MS = "RETRY_LONGEST_BACKOFF_MS";
  public static final String RETRY_JITTER_PERCENT = "RETRY_JITTER_PERCENT";
  public static final String RETRY_AFTER_LOCK_MS = "RETRY_AFTER_LOCK_MS";
  public static final String DEAD_LETTER_QUEUE_URL = "DEAD_LETTER_QUEUE_URL";
  /** Read at initialisation, so part of each published version's snapshot: changed only by a deploy. */
  public static final String LOG_LEVEL = "FULFIL_LOG_LEVEL";
  /** Powertools' names: the metrics' namespace and service dimension ({@link MetricNames}). */
  public static final String METRICS_NAMESPACE = "POWERTOOLS_METRICS_NAMESPACE";
  public static final String SERVICE_NAME = "POWERTOOLS_SERVICE_NAME";
  /** Read by the JVM itself as it starts, before Lambda's runtime client. */
  public static final String JAVA_TOOL_OPTIONS = "JAVA_TOOL_OPTIONS";
  /** java21's default JIT, which java25 with SnapStart no longer sets: why the function keeps it is in docs/performance.md. */
  public static final String C1_ONLY = "-XX:+TieredCompilation -XX:TieredStopAtLevel=1";

  /**
   * What every deployment of the function sets alike, whatever its resources: the stack deploys it, and
   * the local run's environments start with it, so both run the same JVM.
   */
  public static Map<String, String> everyDeployment() {
    return Map.of(JAVA_TOOL_OPTIONS, C1_ONLY, SERVICE_NAME, MetricNames.SERVICE, METRICS_NAMESPACE, MetricNames.NAMESPACE);
  }

  /**
   * Where the function finds what its deployment gave it: the idempotency table, the partner's API and the secret
   * holding the partner's key. The stack writes them; every stand-in for it (the local run, the harnesses, the
   * benchmarks) writes the same three.
   */
  public static Map<String, String> resources(String idempotencyTable, String partnerBaseUrl, String apiKeySecretId) {
    return Map.of(IDEMPOTENCY_TABLE_NAME, idempotencyTable, PARTNER_BASE_URL, partnerBaseUrl,
        PARTNER_API_KEY_SECRET_ID, apiKeySecretId);
  }

  private FunctionEnvironment() {}
}
