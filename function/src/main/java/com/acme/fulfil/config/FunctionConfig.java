package com.acme.fulfil.config;

import com.acme.fulfil.contract.MetricNames;
import com.acme.fulfil.contract.FunctionEnvironment;
import static com.acme.fulfil.contract.FunctionEnvironment.DEAD_LETTER_QUEUE_URL;
import static com.acme.fulfil.contract.FunctionEnvironment.IDEMPOTENCY_TABLE_NAME;
import static com.acme.fulfil.contract.FunctionEnvironment.IDEMPOTENCY_TTL_SECONDS;
import static com.acme.fulfil.contract.FunctionEnvironment.MAX_RECEIVE_COUNT;
import static com.acme.fulfil.contract.FunctionEnvironment.PARTNER_API_KEY_SECRET_ID;
import static com.acme.fulfil.contract.FunctionEnvironment.PARTNER_BASE_URL;
import static com.acme.fulfil.contract.FunctionEnvironment.PARTNER_DEADLINE_MARGIN_MS;
import static com.acme.fulfil.contract.FunctionEnvironment.PARTNER_LATE_BOOKING_HOLD_MS;
import static com.acme.fulfil.contract.FunctionEnvironment.PARTNER_LOOKUP_TIMEOUT_MS;
import static com.acme.fulfil.contract.FunctionEnvironment.PARTNER_WORST_CASE_MS;
import static com.acme.fulfil.contract.FunctionEnvironment.RECORD_CONCURRENCY;
import static com.acme.fulfil.contract.FunctionEnvironment.RETRY_AFTER_LOCK_MS;
import static com.acme.fulfil.contract.FunctionEnvironment.RETRY_FIRST_BACKOFF_MS;
import static com.acme.fulfil.contract.FunctionEnvironment.RETRY_JITTER_PERCENT;
import static com.acme.fulfil.contract.FunctionEnvironment.RETRY_LONGEST_BACKOFF_MS;

import com.acme.fulfil.contract.RetrySchedule;
import com.acme.fulfil.contract.TimingBudget;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything the function reads from its environment, read once at start-up and validated, so a
 * misconfigured deploy fails its first invocation with the name of the bad variable instead of
 * failing orders one by one.
 *
 * <p>A timing variable that is not set takes its value from {@code TimingBudget.defaults()}, the
 * one place those numbers live; the stack writes the real ones from its budget.
 */
public record FunctionConfig(
    String functionName,
    String idempotencyTable,
    URI partnerBaseUrl,
    String apiKeySecretId,
    Duration partnerDeadlineMargin,
    Duration partnerWorstCase,
    Duration partnerLookupTimeout,
    Duration lateBookingHold,
    int recordConcurrency,
    int maxReceiveCount,
    RetrySchedule retrySchedule,
    Duration idempotencyTtl,
    String metricsNamespace,
    Optional<String> deadLetterQueueUrl,
    AwsEndpoints endpoints) {

  public static FunctionConfig fromEnvironment(Map<String, String> env) {
    Reader r = new Reader(env, TimingBudget.defaults().functionEnvironment());
    FunctionConfig config = new FunctionConfig(
        // Lambda sets it; it is the first part of every order's key.
        r.required("AWS_LAMBDA_FUNCTION_NAME"),
        r.required(IDEMPOTENCY_TABLE_NAME),
        r.partnerUrl(PARTNER_BASE_URL),
        r.required(PARTNER_API_KEY_SECRET_ID),
        r.millis(PARTNER_DEADLINE_MARGIN_MS),
        r.millis(PARTNER_WORST_CASE_MS),
        r.millis(PARTNER_LOOKUP_TIMEOUT_MS),
        r.millis(PARTNER_LATE_BOOKING_HOLD_MS),
        r.positiveInt(RECORD_CONCURRENCY),
        r.positiveInt(MAX_RECEIVE_COUNT),
        new RetrySchedule(r.millis(RETRY_FIRST_BACKOFF_MS), r.millis(RETRY_LONGEST_BACKOFF_MS),
            r.percent(RETRY_JITTER_PERCENT), Duration.ofMillis(r.notNegativeLong(RETRY_AFTER_LOCK_MS))),
        Duration.ofSeconds(r.positiveInt(IDEMPOTENCY_TTL_SECONDS)),
        env.getOrDefault(FunctionEnvironment.METRICS_NAMESPACE, MetricNames.NAMESPACE),
        r.optionalUrl(DEAD_LETTER_QUEUE_URL).map(URI::toString),
        AwsEndpoints.fromEnvironment(env, r));
    r.failIfAnyProblem();
    return config;
  }

  /**
   * Region and endpoint overrides from the standard variables, so the same artifact runs against
   * emulators. Read from the map rather than left to the SDK so a local run can pass them in-process.
   */
  public record AwsEndpoints(Optional<String> region, Optional<URI> dynamoDb, Optional<URI> secretsManager, Optional<URI> sqs) {
    static AwsEndpoints fromEnvironment(Map<String, String> env, Reader r) {
      Optional<URI> common = r.optionalUrl("AWS_ENDPOINT_URL");
      return new AwsEndpoints(
          Optional.ofNullable(env.get("AWS_REGION")).filter(v -> !v.isBlank()),
          r.optionalUrl("AWS_ENDPOINT_URL_DYNAMODB").or(() -> common),
          r.optionalUrl("AWS_ENDPOINT_URL_SECRETS_MANAGER").or(() -> common),
          r.optionalUrl("AWS_ENDPOINT_URL_SQS").or(() -> common));
    }
  }

  private static final class Reader {
    /** As {@link URI#getHost()} gives them: an IPv6 literal keeps its brackets. */
    private static final java.util.Set<String> LOOPBACK_HOSTS = java.util.Set.of("127.0.0.1", "localhost", "[::1]");

    private final Map<String, String> env;
    private final Map<String, String> defaults;
    private final List<String> problems = new ArrayList<>();

    Reader(Map<String, String> env, Map<String, String> defaults) {
      this.env = env;
      this.defaults = defaults;
    }

    String required(String name) {
      String value = env.get(name);
      if (value == null || value.isBlank()) {
        problems.add(name + " is not set");
        return null;
      }
      return value.strip();
    }

    URI url(String name) {
      String value = required(name);
      return value == null ? null : parseUrl(name, value);
    }

    /**
     * The partner's URL: https, because the API key goes with every request; plain http only to a
     * partner on this machine (the tests' and the local run's simulator), where nothing crosses a network.
     */
    URI partnerUrl(String name) {
      URI uri = url(name);
      if (uri != null && !"https".equals(uri.getScheme()) && !LOOPBACK_HOSTS.contains(uri.getHost())) {
        problems.add(name + " must be an https:// URL (the API key travels with every request), got '" + uri
            + "'; plain http:// is only for a partner on this machine (127.0.0.1, localhost, ::1)");
        return null;
      }
      return uri;
    }

    Optional<URI> optionalUrl(String name) {
      String value = env.get(name);
      return value == null || value.isBlank() ? Optional.empty() : Optional.ofNullable(parseUrl(name, value.strip()));
    }

    Duration millis(String name) {
      return Duration.ofMillis(positiveLong(name));
    }

    int positiveInt(String name) {
      long value = positiveLong(name);
      if (value > Integer.MAX_VALUE) {
        problems.add(name + " is too large: " + value);
        return 1;
      }
      return (int) value;
    }

    /** A share of 0 to 50 percent: the most the retry schedule's jitter takes off a backoff. */
    int percent(String name) {
      long value = wholeNumber(name, 0, "from 0 to 50");
      if (value > 50) {
        problems.add(name + " must be a whole number from 0 to 50, got '" + env.get(name) + "'");
        return Integer.parseInt(defaults.get(name));
      }
      return (int) value;
    }

    long notNegativeLong(String name) {
      return wholeNumber(name, 0, "not negative");
    }

    private long positiveLong(String name) {
      return wholeNumber(name, 1, "positive");
    }

    private long wholeNumber(String name, long least, String what) {
      long fallback = Long.parseLong(defaults.get(name));
      String value = env.get(name);
      if (value == null || value.isBlank()) {
        return fallback;
      }
      try {
        long parsed = Long.parseLong(value.strip());
        if (parsed >= least) {
          return parsed;
        }
      } catch (NumberFormatException e) {
        // reported below with the variable's name
      }
      problems.add(name + " must be " + (least > 0 ? "a positive whole number" : "a whole number " + what) + ", got '" + value + "'");
      return fallback;
    }

    private URI parseUrl(String name, String value) {
      try {
        URI uri = URI.create(value);
        if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
          return uri;
        }
      } catch (IllegalArgumentException e) {
        // reported below with the variable's name
      }
      problems.add(name + " must be an http(s) URL, got '" + value + "'");
      return null;
    }

    void failIfAnyProblem() {
      if (!problems.isEmpty()) {
        throw new IllegalStateException("fulfil-order cannot start: " + String.join("; ", problems));
      }
    }
  }
}
