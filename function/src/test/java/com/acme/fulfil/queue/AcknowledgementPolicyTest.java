package com.acme.fulfil.queue;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.booking.Booking;
import com.acme.fulfil.contract.records.DeadLetterAttributes;
import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.fulfilment.NextTry;
import com.acme.fulfil.fulfilment.ReceivedMessage;
import com.acme.fulfil.fulfilment.RecordOutcome;
import com.acme.fulfil.observability.FulfilmentMetrics;
import com.acme.fulfil.queue.AcknowledgementPolicy.DeadLetterNow;
import com.acme.fulfil.queue.AcknowledgementPolicy.Delete;
import com.acme.fulfil.queue.AcknowledgementPolicy.ReturnAfter;
import com.acme.fulfil.queue.AcknowledgementPolicy.ReturnAtTimeout;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import software.amazon.lambda.powertools.metrics.Metrics;

/** Exactly one decision for each outcome, and DeadLettered counted once for each message that leaves for the DLQ. */
class AcknowledgementPolicyTest {
  private static final int MAX_RECEIVES = 5;
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-25T12:00:00Z"), ZoneOffset.UTC);
  private static final RecordOutcome.Rejected POISON =
      new RecordOutcome.Rejected(DeadLetterAttributes.INVALID_MESSAGE, "not JSON", null);

  private final List<String> counted = new CopyOnWriteArrayList<>();
  private final AcknowledgementPolicy policy = new AcknowledgementPolicy(
      new RetryWaits(TimingBudget.defaults().retrySchedule(), CLOCK, () -> 0L),
      new FulfilmentMetrics((Metrics) Proxy.newProxyInstance(Metrics.class.getClassLoader(),
          new Class<?>[] {Metrics.class}, (proxy, method, args) -> {
            if (method.getName().equals("addMetric")) {
              counted.add((String) args[0]);
            }
            return null;
          })),
      MAX_RECEIVES, CLOCK);

  @Test
  void aBookedOrdersMessageIsDeleted() {
    Booking booking = new Booking("ORD-1", "SHP-1", "T1", "DPD", "https://l/1.pdf", Booking.Source.BOOKED, "a");
    for (RecordOutcome done : List.of(new RecordOutcome.Booked(booking), new RecordOutcome.Adopted(booking),
        new RecordOutcome.AlreadyBooked(booking))) {
      assertThat(policy.decide(receive(MAX_RECEIVES), done)).isEqualTo(new Delete());
    }
    assertThat(counted).isEmpty();
  }

  @Test
  void poisonGoesToTheDlqAndIsDeletedOnceThere() {
    assertThat(policy.decide(receive(1), POISON)).isEqualTo(new DeadLetterNow(POISON));
    assertThat(counted).isEmpty();
    assertThat(policy.afterDeadLetter(receive(1), true)).isEqualTo(new Delete());
    assertThat(counted).containsExactly(MetricNames.DEAD_LETTERED);
  }

  @Test
  void poisonTheDlqRefusedReturnsAtOnceAndCountsOnlyOnItsLastReceive() {
    assertThat(policy.afterDeadLetter(receive(1), false)).isEqualTo(new ReturnAfter(Duration.ZERO));
    assertThat(counted).isEmpty();
    assertThat(policy.afterDeadLetter(receive(MAX_RECEIVES), false)).isEqualTo(new ReturnAfter(Duration.ZERO));
    assertThat(counted).containsExactly(MetricNames.DEAD_LETTERED);
  }

  @Test
  void aRetryReturnsAfterItsWaitOrAtTheTimeoutAndCountsOnlyOnItsLastReceive() {
    RecordOutcome backoff = new RecordOutcome.Retry("503 to a lookup", new NextTry.Backoff());
    assertThat(policy.decide(receive(1), backoff)).isEqualTo(new ReturnAfter(Duration.ofSeconds(5)));
    assertThat(policy.decide(receive(1), new RecordOutcome.InProgressElsewhere(new NextTry.QueueTimeout())))
        .isEqualTo(new ReturnAtTimeout());
    assertThat(counted).isEmpty();
    assertThat(policy.decide(receive(MAX_RECEIVES), new RecordOutcome.Retry("our bug", new NextTry.QueueTimeout())))
        .isEqualTo(new ReturnAtTimeout());
    assertThat(counted).containsExactly(MetricNames.DEAD_LETTERED);
  }

  private static ReceivedMessage receive(int count) {
    return new ReceivedMessage("m-" + count, "handle", "{}", count, Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), Map.of());
  }
}
