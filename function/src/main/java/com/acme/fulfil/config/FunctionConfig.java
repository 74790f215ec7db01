package com.acme.fulfil.config;

import static com.acme.fulfil.contract.settings.FunctionEnvironment.*;

import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.contract.timing.RetrySchedule;
import com.acme.fulfil.contract.timing.TimingBudget;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Everything the function reads from its environment, validated at start-up so that a misconfigured deploy fails its
 * first invocation naming every bad variable instead of failing orders one by one. An unset timing variable takes
 * its value from {@code TimingBudget.defaults()}, the one place those numbers live.
 */
public record FunctionConfig(String functionName, String idempotencyTable, URI partnerBaseUrl, String apiKeySecretId,
    Duration partnerDeadlineMargin, Duration partnerWorstCase, Duration partnerLookupTimeout, Duration lateBookingHold,
    int recordConcurrency, int maxReceiveCount, RetrySchedule retrySchedule, Duration idempotencyTtl,
    String metricsNamespace, Optional<String> deadLetterQueueUrl, AwsEndpoints endpoints) {

  public static FunctionConfig fromEnvironment(Map<String, String> env) {
    Reader r = new Reader(env, TimingBudget.defaults().functionEnvironment());
    String functionName = r.required("AWS_LAMBDA_FUNCTION_NAME"); // Lambda sets it; it is the first part of every order's key.
    String table = r.required(IDEMPOTENCY_TABLE_NAME);
    URI partner = r.partnerUrl(PARTNER_BASE_URL);
    FunctionConfig config = new FunctionConfig(functionName, table, partner, r.required(PARTNER_API_KEY_SECRET_ID),
        r.millis(PARTNER_DEADLINE_MARGIN_MS), r.millis(PARTNER_WORST_CASE_MS), r.millis(PARTNER_LOOKUP_TIMEOUT_MS),
        r.lateBookingHold(PARTNER_LATE_BOOKING_HOLD_MS, partner), r.positiveInt(RECORD_CONCURRENCY), r.positiveInt(MAX_RECEIVE_COUNT),
        new RetrySchedule(r.millis(RETRY_FIRST_BACKOFF_MS), r.millis(RETRY_LONGEST_BACKOFF_MS),
            (int) r.number(RETRY_JITTER_PERCENT, 0, 50, "a whole number from 0 to 50"),
            Duration.ofMillis(r.number(RETRY_AFTER_LOCK_MS, 0, Long.MAX_VALUE, "a whole number not negative"))),
        Duration.ofSeconds(r.positiveInt(IDEMPOTENCY_TTL_SECONDS)),
        env.getOrDefault(METRICS_NAMESPACE, MetricNames.NAMESPACE),
        r.optionalUrl(DEAD_LETTER_QUEUE_URL).map(URI::toString), AwsEndpoints.fromEnvironment(env, r));
    r.failIfAnyProblem();
    return config;
  }

  /** The standard region and endpoint variables, from the map rather than the SDK so a local run can pass them. */
  public record AwsEndpoints(Optional<String> region, Optional<URI> dynamoDb, Optional<URI> secretsManager,
      Optional<URI> sqs) {
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
    private static final Set<String> LOOPBACK_HOSTS = Set.of("127.0.0.1", "localhost", "[::1]");

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

    /** https, as the API key goes with every request; plain http only to a partner on this machine (tests, local). */
    URI partnerUrl(String name) {
      String value = required(name);
      URI uri = value == null ? null : parseUrl(name, value);
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
      return Duration.ofMillis(number(name, 1, Long.MAX_VALUE, "a positive whole number"));
    }

    /**
     * At least the contract's maximum plus the clock-skew allowance: a shorter hold lets a try book again while the
     * partner may still carry out the last request. Only a partner on this machine (the local run, the tests), whose
     * contract is scaled down with their time, may be held for less.
     */
    Duration lateBookingHold(String name, URI partner) {
      Duration hold = millis(name);
      Duration least = TimingBudget.PARTNER_CONTRACT_MAXIMUM.plus(TimingBudget.CLOCK_SKEW_ALLOWANCE);
      if (hold.compareTo(least) < 0 && partner != null && !LOOPBACK_HOSTS.contains(partner.getHost())) {
        problems.add(name + " must be at least " + least.toMillis() + " (the partner's contract maximum plus the clock-skew"
            + " allowance), got " + hold.toMillis());
      }
      return hold;
    }

    int positiveInt(String name) {
      long value = number(name, 1, Long.MAX_VALUE, "a positive whole number");
      if (value > Integer.MAX_VALUE) {
        problems.add(name + " is too large: " + value);
        return 1;
      }
      return (int) value;
    }

    /** A whole number from {@code least} to {@code most}; the variable's default when it is not set or broken. */
    long number(String name, long least, long most, String rule) {
      long fallback = Long.parseLong(defaults.get(name));
      String value = env.get(name);
      if (value == null || value.isBlank()) {
        return fallback;
      }
      try {
        long parsed = Long.parseLong(value.strip());
        if (parsed >= least && parsed <= most) {
          return parsed;
        }
      } catch (NumberFormatException e) {
        // reported below with the variable's name
      }
      problems.add(name + " must be " + rule + ", got '" + value + "'");
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
