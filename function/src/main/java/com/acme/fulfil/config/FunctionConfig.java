package com.acme.fulfil.config;

import static com.acme.fulfil.contract.settings.FunctionEnvironment.*;

import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.contract.sqs.SqsLimits;
import com.acme.fulfil.contract.timing.RetrySchedule;
import com.acme.fulfil.contract.timing.TimingBudget;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the function reads from its environment, in parts by role, each refusing what could not work. Read
 * through {@link #fromEnvironment}, validated at start-up so that a misconfigured deploy fails its first invocation
 * naming every bad variable instead of failing orders one by one. An unset timing variable takes its value from
 * {@code TimingBudget.defaults()}, the one place those numbers live.
 */
public record FunctionConfig(IdempotencyTable table, Partner partner, CallTimes calls, QueueHandling queue,
    String metricsNamespace, AwsEndpoints endpoints) {

  public FunctionConfig {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(partner, "partner");
    Objects.requireNonNull(calls, "calls");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(metricsNamespace, "metricsNamespace");
    Objects.requireNonNull(endpoints, "endpoints");
  }

  public static FunctionConfig fromEnvironment(Map<String, String> env) {
    Reader r = new Reader(env, TimingBudget.defaults().functionEnvironment());
    String functionName = r.required("AWS_LAMBDA_FUNCTION_NAME"); // Lambda sets it; it is the first part of every order's key.
    String tableName = r.required(IDEMPOTENCY_TABLE_NAME);
    URI partnerUrl = r.partnerUrl(PARTNER_BASE_URL);
    String apiKeySecretId = r.required(PARTNER_API_KEY_SECRET_ID);
    Duration deadlineMargin = r.millis(PARTNER_DEADLINE_MARGIN_MS);
    Duration worstCase = r.millis(PARTNER_WORST_CASE_MS);
    Duration lookupTimeout = r.millis(PARTNER_LOOKUP_TIMEOUT_MS);
    Duration lateBookingHold = r.lateBookingHold(PARTNER_LATE_BOOKING_HOLD_MS, partnerUrl);
    int recordConcurrency = r.positiveInt(RECORD_CONCURRENCY);
    int maxReceiveCount = (int) r.number(MAX_RECEIVE_COUNT, 1, SqsLimits.MAX_RECEIVE_COUNT,
        "a whole number from 1 to " + SqsLimits.MAX_RECEIVE_COUNT);
    Optional<RetrySchedule> retrySchedule = r.retrySchedule();
    Duration ttl = Duration.ofSeconds(r.positiveInt(IDEMPOTENCY_TTL_SECONDS));
    Optional<String> deadLetterQueueUrl = r.optionalUrl(DEAD_LETTER_QUEUE_URL).map(URI::toString);
    AwsEndpoints endpoints = AwsEndpoints.fromEnvironment(env, r);
    r.failIfAnyProblem();
    // Every part was checked above against the rules its record keeps, so none of these refuses.
    return new FunctionConfig(new IdempotencyTable(tableName, functionName, ttl),
        new Partner(partnerUrl, apiKeySecretId, lateBookingHold), new CallTimes(lookupTimeout, worstCase, deadlineMargin),
        new QueueHandling(recordConcurrency, maxReceiveCount, retrySchedule.orElseThrow(), deadLetterQueueUrl),
        env.getOrDefault(METRICS_NAMESPACE, MetricNames.NAMESPACE), endpoints);
  }

  /** The standard region and endpoint variables, from the map rather than the SDK so a local run can pass them. */
  public record AwsEndpoints(Optional<String> region, Optional<URI> dynamoDb, Optional<URI> secretsManager,
      Optional<URI> sqs) {
    public AwsEndpoints {
      Objects.requireNonNull(region, "region");
      Objects.requireNonNull(dynamoDb, "dynamoDb");
      Objects.requireNonNull(secretsManager, "secretsManager");
      Objects.requireNonNull(sqs, "sqs");
    }

    static AwsEndpoints fromEnvironment(Map<String, String> env, Reader r) {
      Optional<URI> common = r.optionalUrl("AWS_ENDPOINT_URL");
      return new AwsEndpoints(
          Optional.ofNullable(env.get("AWS_REGION")).filter(v -> !v.isBlank()),
          r.optionalUrl("AWS_ENDPOINT_URL_DYNAMODB").or(() -> common),
          r.optionalUrl("AWS_ENDPOINT_URL_SECRETS_MANAGER").or(() -> common),
          r.optionalUrl("AWS_ENDPOINT_URL_SQS").or(() -> common));
    }
  }

  /** Reads each variable once, collecting a sentence naming it for every one that is missing or breaks a rule. */
  private static final class Reader {
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

    URI partnerUrl(String name) {
      String value = required(name);
      URI uri = value == null ? null : parseUrl(name, value);
      return uri != null && check(name, Partner.urlProblem(uri)) ? uri : null;
    }

    Optional<URI> optionalUrl(String name) {
      String value = env.get(name);
      return value == null || value.isBlank() ? Optional.empty() : Optional.ofNullable(parseUrl(name, value.strip()));
    }

    Duration millis(String name) {
      return Duration.ofMillis(number(name, 1, Long.MAX_VALUE, "a positive whole number"));
    }

    /** The hold's rule depends on where the partner is: judged only when its URL could be read. */
    Duration lateBookingHold(String name, URI partner) {
      Duration hold = millis(name);
      if (partner != null) {
        check(name, Partner.holdProblem(partner, hold));
      }
      return hold;
    }

    /**
     * Each variable as a number in its range, then the four together, as a schedule refuses a longest backoff below
     * the first or beyond what SQS takes.
     */
    Optional<RetrySchedule> retrySchedule() {
      Duration first = millis(RETRY_FIRST_BACKOFF_MS);
      Duration longest = millis(RETRY_LONGEST_BACKOFF_MS);
      int jitter = (int) number(RETRY_JITTER_PERCENT, 0, RetrySchedule.MAX_JITTER_PERCENT,
          "a whole number from 0 to " + RetrySchedule.MAX_JITTER_PERCENT);
      Duration afterLock = Duration.ofMillis(number(RETRY_AFTER_LOCK_MS, 0, Long.MAX_VALUE, "a whole number not negative"));
      try {
        return Optional.of(new RetrySchedule(first, longest, jitter, afterLock));
      } catch (IllegalArgumentException e) {
        problems.add(String.join(", ", RETRY_FIRST_BACKOFF_MS, RETRY_LONGEST_BACKOFF_MS, RETRY_JITTER_PERCENT,
            RETRY_AFTER_LOCK_MS) + ": " + e.getMessage());
        return Optional.empty();
      }
    }

    /** Whether the variable keeps the rule; if not, says so naming it. */
    private boolean check(String name, Optional<String> problem) {
      problem.ifPresent(p -> problems.add(name + " " + p));
      return problem.isEmpty();
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
