package com.acme.fulfil.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.acme.fulfil.booking.CallWindow;
import com.acme.fulfil.contract.timing.RetrySchedule;
import com.acme.fulfil.contract.timing.TimingBudget;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FunctionConfigTest {

  private static Map<String, String> minimal() {
    Map<String, String> env = new HashMap<>();
    env.put("AWS_LAMBDA_FUNCTION_NAME", "fulfil-order");
    env.put("IDEMPOTENCY_TABLE_NAME", "fulfil-order-idempotency");
    env.put("PARTNER_BASE_URL", "https://partner.example.com");
    env.put("PARTNER_API_KEY_SECRET_ID", "fulfil-order/partner-api-key");
    return env;
  }

  @Test
  void defaultsSuitAThreeHundredSecondFunction() {
    FunctionConfig config = FunctionConfig.fromEnvironment(minimal());
    assertThat(config.calls()).isEqualTo(new CallTimes(Duration.ofSeconds(5), Duration.ofSeconds(280), Duration.ofSeconds(10)));
    assertThat(config.partner().lateBookingHold()).as("the contract's 300 s after the POST, plus 5 s of clock skew")
        .isEqualTo(Duration.ofSeconds(305));
    assertThat(config.table().ttl()).isEqualTo(Duration.ofDays(21));
    assertThat(config.queue().maxReceiveCount()).isEqualTo(14);
    assertThat(config.queue().retrySchedule()).isEqualTo(TimingBudget.defaults().retrySchedule());
    assertThat(config.endpoints().dynamoDb()).isEmpty();
  }

  /**
   * The hold is the one margin exactly once rests on against a partner that books late: below the contract's maximum
   * plus the clock-skew allowance the function refuses to start. Only a partner on this machine, whose contract the
   * local run and the tests scale down with their time, may have a shorter one.
   */
  @Test
  void aLateBookingHoldShorterThanTheContractAllowsIsRefused() {
    Map<String, String> env = minimal();
    env.put("PARTNER_LATE_BOOKING_HOLD_MS", "304999");
    assertThatThrownBy(() -> FunctionConfig.fromEnvironment(env))
        .hasMessageContaining("PARTNER_LATE_BOOKING_HOLD_MS must be at least 305000");
    env.put("PARTNER_LATE_BOOKING_HOLD_MS", "305000");
    assertThat(FunctionConfig.fromEnvironment(env).partner().lateBookingHold()).isEqualTo(Duration.ofSeconds(305));
    env.put("PARTNER_BASE_URL", "http://127.0.0.1:8080");
    env.put("PARTNER_LATE_BOOKING_HOLD_MS", "4200");
    assertThat(FunctionConfig.fromEnvironment(env).partner().lateBookingHold()).isEqualTo(Duration.ofMillis(4200));
  }

  @Test
  void everyMissingVariableIsNamedAtOnce() {
    assertThatThrownBy(() -> FunctionConfig.fromEnvironment(Map.of()))
        .hasMessage("fulfil-order cannot start: AWS_LAMBDA_FUNCTION_NAME is not set; IDEMPOTENCY_TABLE_NAME is not set; PARTNER_BASE_URL is not set;"
            + " PARTNER_API_KEY_SECRET_ID is not set");
  }

  @Test
  void badNumbersAndUrlsAreNamed() {
    Map<String, String> env = minimal();
    env.put("PARTNER_DEADLINE_MARGIN_MS", "ten seconds");
    env.put("PARTNER_BASE_URL", "partner.example.com");
    assertThatThrownBy(() -> FunctionConfig.fromEnvironment(env))
        .hasMessageContaining("PARTNER_BASE_URL must be an http(s) URL, got 'partner.example.com'")
        .hasMessageContaining("PARTNER_DEADLINE_MARGIN_MS must be a positive whole number, got 'ten seconds'");
  }

  /**
   * Review: only synth refused an http:// partner URL; a console edit of the variable sent the partner's
   * API key in clear on the next cold start.
   */
  @Test
  void aPartnerUrlWithoutTlsIsRefusedAtStartUpNamingTheVariable() {
    Map<String, String> env = minimal();
    env.put("PARTNER_BASE_URL", "http://partner.example.com");
    assertThatThrownBy(() -> FunctionConfig.fromEnvironment(env))
        .hasMessage("fulfil-order cannot start: PARTNER_BASE_URL must be an https:// URL (the API key travels with every"
            + " request), got 'http://partner.example.com'; plain http:// is only for a partner on this machine"
            + " (127.0.0.1, localhost, ::1)");
    env.put("PARTNER_BASE_URL", "http://127.0.0.1.partner.example.com");
    assertThatThrownBy(() -> FunctionConfig.fromEnvironment(env)).hasMessageContaining("must be an https:// URL");
  }

  @Test
  void aPartnerOnThisMachineMayUsePlainHttpForTestsAndTheLocalRun() {
    for (String loopback : new String[] {"http://127.0.0.1:8123", "http://localhost:8123/", "http://[::1]:8123"}) {
      Map<String, String> env = minimal();
      env.put("PARTNER_BASE_URL", loopback);
      assertThat(FunctionConfig.fromEnvironment(env).partner().baseUrl()).isEqualTo(URI.create(loopback));
    }
  }

  @Test
  void serviceEndpointVariablesOverrideTheCommonOne() {
    Map<String, String> env = minimal();
    env.put("AWS_ENDPOINT_URL", "http://127.0.0.1:4566");
    env.put("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:8000");
    env.put("AWS_REGION", "eu-west-2");
    FunctionConfig.AwsEndpoints endpoints = FunctionConfig.fromEnvironment(env).endpoints();
    assertThat(endpoints.dynamoDb()).contains(URI.create("http://127.0.0.1:8000"));
    assertThat(endpoints.sqs()).contains(URI.create("http://127.0.0.1:4566"));
    assertThat(endpoints.secretsManager()).contains(URI.create("http://127.0.0.1:4566"));
    assertThat(endpoints.region()).contains("eu-west-2");
  }

  /** Every bad variable at once, whichever part of the configuration it belongs to, each by its name. */
  @Test
  void badVariablesOfEveryPartAreNamedTogether() {
    Map<String, String> env = minimal();
    env.remove("PARTNER_API_KEY_SECRET_ID");
    env.put("PARTNER_LATE_BOOKING_HOLD_MS", "300000");
    env.put("MAX_RECEIVE_COUNT", "1001");
    env.put("RETRY_JITTER_PERCENT", "60");
    env.put("RETRY_FIRST_BACKOFF_MS", "5000");
    env.put("RETRY_LONGEST_BACKOFF_MS", "4000");
    env.put("IDEMPOTENCY_TTL_SECONDS", "0");
    assertThatThrownBy(() -> FunctionConfig.fromEnvironment(env))
        .hasMessageContaining("PARTNER_API_KEY_SECRET_ID is not set")
        .hasMessageContaining("PARTNER_LATE_BOOKING_HOLD_MS must be at least 305000 ms")
        .hasMessageContaining("MAX_RECEIVE_COUNT must be a whole number from 1 to 1000, got '1001'")
        .hasMessageContaining("RETRY_JITTER_PERCENT must be a whole number from 0 to 50, got '60'")
        .hasMessageContaining("RETRY_FIRST_BACKOFF_MS, RETRY_LONGEST_BACKOFF_MS, RETRY_JITTER_PERCENT, RETRY_AFTER_LOCK_MS:"
            + " not a retry schedule: its longest backoff must be from its first (5 s)")
        .hasMessageContaining("IDEMPOTENCY_TTL_SECONDS must be a positive whole number, got '0'");
  }

  /** The parts refuse a wrong configuration however they are built, not only when read from the environment. */
  @Test
  void aPartnerElsewhereCannotBeHeldLessThanTheContractNorReachedWithoutTls() {
    URI elsewhere = URI.create("https://partner.example.com");
    assertThatThrownBy(() -> new Partner(elsewhere, "secret", Duration.ofMillis(304_999)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("lateBookingHold must be at least 305000 ms (the partner's contract maximum plus the clock-skew"
            + " allowance), got 304999 ms");
    assertThat(new Partner(elsewhere, "secret", Partner.LEAST_HOLD).lateBookingHold()).isEqualTo(Duration.ofSeconds(305));
    URI here = URI.create("http://127.0.0.1:8123");
    assertThat(new Partner(here, "secret", Duration.ofMillis(4200)).lateBookingHold()).isEqualTo(Duration.ofMillis(4200));
    assertThatThrownBy(() -> new Partner(here, "secret", Duration.ZERO)).hasMessage("lateBookingHold must be positive, got 0 ms");
    assertThatThrownBy(() -> new Partner(URI.create("http://partner.example.com"), "secret", Partner.LEAST_HOLD))
        .hasMessageStartingWith("baseUrl must be an https:// URL");
    assertThatThrownBy(() -> new Partner(URI.create("ftp://localhost"), "secret", Partner.LEAST_HOLD))
        .hasMessageStartingWith("baseUrl must be an https:// URL");
    assertThatThrownBy(() -> new Partner(elsewhere, " ", Partner.LEAST_HOLD)).hasMessage("apiKeySecretId must not be blank");
    assertThatThrownBy(() -> new Partner(null, "secret", Partner.LEAST_HOLD)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void callTimesMustEachBePositiveAndKeepTheirRoles() {
    Duration second = Duration.ofSeconds(1);
    assertThatThrownBy(() -> new CallTimes(Duration.ZERO, second, second)).hasMessage("lookupTimeout must be positive, got PT0S");
    assertThatThrownBy(() -> new CallTimes(second, second.negated(), second)).hasMessageStartingWith("worstCase must be positive");
    assertThatThrownBy(() -> new CallTimes(second, second, null)).isInstanceOf(NullPointerException.class);
    CallTimes calls = new CallTimes(Duration.ofSeconds(5), Duration.ofSeconds(280), Duration.ofSeconds(10));
    CallWindow window = calls.window(Clock.systemUTC(), () -> 300_000);
    assertThat(List.of(window.lookupTimeout(), window.partnerWorstCase(), window.margin()))
        .as("each duration where the call window expects it")
        .containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(280), Duration.ofSeconds(10));
  }

  @Test
  void queueHandlingKeepsToWhatSqsAllows() {
    RetrySchedule schedule = TimingBudget.defaults().retrySchedule();
    assertThatThrownBy(() -> new QueueHandling(10, 1001, schedule, Optional.empty()))
        .hasMessage("maxReceiveCount must be from 1 to 1000 (SQS's redrive policy), got 1001");
    assertThatThrownBy(() -> new QueueHandling(10, 0, schedule, Optional.empty())).hasMessageContaining("got 0");
    assertThatThrownBy(() -> new QueueHandling(0, 14, schedule, Optional.empty()))
        .hasMessage("recordConcurrency must be at least 1, got 0");
    assertThatThrownBy(() -> new QueueHandling(10, 14, null, Optional.empty())).isInstanceOf(NullPointerException.class);
  }

  @Test
  void theIdempotencyTableNeedsANameAKeyPrefixAndALifetime() {
    assertThatThrownBy(() -> new IdempotencyTable("", "fulfil-order", Duration.ofDays(21))).hasMessage("name must not be blank");
    assertThatThrownBy(() -> new IdempotencyTable("table", null, Duration.ofDays(21))).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new IdempotencyTable("table", "fulfil-order", Duration.ZERO)).hasMessageStartingWith("ttl must be positive");
  }
}
