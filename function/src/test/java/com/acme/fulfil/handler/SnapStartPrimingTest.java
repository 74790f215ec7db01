package com.acme.fulfil.handler;

import static com.acme.fulfil.handler.HandlerHarness.failedIds;
import static com.acme.fulfil.handler.HandlerHarness.newOrderId;
import static com.acme.fulfil.handler.HandlerHarness.order;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.config.FunctionConfig;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SnapStart's priming runs in Lambda against the real table, secret, queue and partner of a deployed
 * version: it must leave every one of them untouched, and leave nothing behind that changes how the
 * next invocation books.
 */
class SnapStartPrimingTest {
  @AutoClose
  private static HandlerHarness harness;

  @BeforeAll
  static void start() {
    harness = new HandlerHarness();
  }

  @Test
  void primingReachesNeitherTheTableTheSecretTheQueueNorThePartner() throws Exception {
    Wiring wiring = Wiring.of(FunctionConfig.fromEnvironment(harness.environment));
    int secretReads = harness.secrets.requestCount("GetSecretValue");

    wiring.priming().beforeCheckpoint(null);

    assertThat(harness.partner.requests()).isEmpty();
    assertThat(harness.secrets.requestCount("GetSecretValue")).isEqualTo(secretReads);
    assertThat(harness.aws.connection().dynamoDbClient().scan(r -> r.tableName(HandlerHarness.TABLE)).count()).isZero();
  }

  @Test
  void anOrderAfterPrimingIsBookedOnceWithTheRealKey() throws Exception {
    Wiring.of(FunctionConfig.fromEnvironment(harness.environment)).priming().beforeCheckpoint(null);
    String orderId = newOrderId();

    assertThat(failedIds(harness.invoke(harness.sendAndReceive(order(orderId))))).isEmpty();

    assertThat(harness.partner.bookingsFor(orderId)).hasSize(1);
    assertThat(harness.partner.unauthorizedCount()).isZero();
  }
}
