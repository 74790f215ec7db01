package com.acme.fulfil.local.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import com.acme.fulfil.contract.records.OrderRecordLayout;
import org.junit.jupiter.api.Test;

class TransientFailuresTest {
  private static final String LOGGER = "com.acme.fulfil.fulfilment.OrderFulfilment";

  private static String line(String logger, String message) {
    return "{\"timestamp\":\"2026-11-25T21:00:00.000Z\",\"level\":\"WARN\",\"logger\":\"" + logger + "\",\"message\":\""
        + message + "\",\"order_id\":\"ord-1\"}";
  }

  private static String transientFailure(String reason) {
    return line(LOGGER, "transient failure, the message returns after a backoff: " + reason);
  }

  @Test
  void countsTheFunctionsFailedTriesByCause() {
    TransientFailures failures = new TransientFailures();
    failures.accept(transientFailure("PartnerUnavailableException: partner answered 503 to a lookup"));
    failures.accept(transientFailure("PartnerUnavailableException: partner unreachable (deadline passed)"
        + " (SocketTimeoutException: timeout)"));
    failures.accept(transientFailure(OrderRecordLayout.NO_TIME_TO_BOOK + ": only 9000 ms left before the deadline margin"));
    failures.accept(transientFailure("PartnerUnavailableException: no time left to call the partner"));
    failures.accept(line(LOGGER, "transient failure, the message returns after the partner's Retry-After of 30 s:"
        + " PartnerUnavailableException: partner rate limited the call (429, Retry-After 30)"));
    failures.accept(line(LOGGER, "transient failure, the message returns after the order's lock ends at 2026-11-25T21:00:10Z:"
        + " PartnerOutcomeUnknownException: partner answered 503, which does not say that nothing was booked"));
    failures.accept(line(LOGGER, "another invocation is booking this order now; the message returns after the order's lock"));
    failures.accept(transientFailure("PartnerUnavailableException: partner unreachable (ConnectException)"));
    failures.accept(transientFailure("DynamoDbException: throttled"));

    assertThat(failures.byCause()).containsExactly(
        entry(FailureCause.LOOKUP_FAILED, 2),
        entry(FailureCause.NO_TIME_TO_BOOK, 2),
        entry(FailureCause.PARTNER_429, 1),
        entry(FailureCause.OUTCOME_UNKNOWN, 1),
        entry(FailureCause.HELD_BY_ANOTHER_TRY, 1),
        entry(FailureCause.PARTNER_UNREACHABLE, 1),
        entry(FailureCause.OTHER, 1));
  }

  @Test
  void ignoresOtherLinesEmfAndOtherLoggers() {
    TransientFailures failures = new TransientFailures();
    failures.accept("{\"_aws\":{\"CloudWatchMetrics\":[]},\"TransientFailure\":1}");
    failures.accept(line("com.acme.fulfil.queue.MessageReturns", "transient failure, the message returns soon: x"));
    failures.accept(line(LOGGER, "booked shipment shp-1 (ACME)"));
    failures.accept("not json {" + LOGGER);

    assertThat(failures.byCause()).isEmpty();
  }
}
