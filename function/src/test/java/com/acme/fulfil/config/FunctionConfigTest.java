package com.acme.fulfil.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
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
    assertThat(config.partnerDeadlineMargin()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.partnerWorstCase()).isEqualTo(Duration.ofSeconds(280));
    assertThat(config.partnerLookupTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.lateBookingHold()).as("the contract's 300 s after the POST, plus 5 s of clock skew")
        .isEqualTo(Duration.ofSeconds(305));
    assertThat(config.idempotencyTtl()).isEqualTo(Duration.ofDays(21));
    assertThat(config.maxReceiveCount()).isEqualTo(14);
    assertThat(config.retrySchedule()).isEqualTo(com.acme.fulfil.contract.timing.TimingBudget.defaults().retrySchedule());
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
    assertThat(FunctionConfig.fromEnvironment(env).lateBookingHold()).isEqualTo(Duration.ofSeconds(305));
    env.put("PARTNER_BASE_URL", "http://127.0.0.1:8080");
    env.put("PARTNER_LATE_BOOKING_HOLD_MS", "4200");
    assertThat(FunctionConfig.fromEnvironment(env).lateBookingHold()).isEqualTo(Duration.ofMillis(4200));
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
      assertThat(FunctionConfig.fromEnvironment(env).partnerBaseUrl()).isEqualTo(URI.create(loopback));
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
}
