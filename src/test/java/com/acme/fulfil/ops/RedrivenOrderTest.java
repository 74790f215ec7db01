package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.Orders;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A label travels with a redrive: the partner refuses an order's address (the function labels it partner_rejected),
 * then says it takes it after all; on-call redrives it, the partner rate limits it until its receives run out, and the
 * redrive policy moves it to the DLQ again, still carrying the first life's label. The order is good: {@code dlq} must
 * not say drop, nor {@code redrive} refuse, on that label or on the record's earlier word. A class of its own, beside
 * {@link FulfilOpsTest}, since a whole life of receives takes tens of seconds.
 */
@OnSelectedBackend
class RedrivenOrderTest {
  /** The ops classes' deployment with a 20 s retry horizon: fewer receives to live out, the same story. */
  private static final TimingBudget BUDGET = OpsOnServe.budget().retryHorizon(Duration.ofSeconds(20)).build();
  @AutoClose
  private static FulfilOrderUnderTest fulfil;
  private static OpsOnServe ops;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "ops-redriven").budget(BUDGET).start();
    ops = new OpsOnServe(fulfil.runbookEnvironment().variables());
  }

  @Test
  void aRedrivenOrderThatRanOutOfReceivesIsNotToldToBeDroppedOnItsEarlierLifesLabel() throws Exception {
    Duration settles = Duration.ofSeconds(60);
    String order = Orders.newId("ORD-OPS-RELABELLED");
    fulfil.partner().script().forOrder(order, 1, Reaction.addressRejected())
        .forOrder(order, BUDGET.maxReceiveCount(), Reaction.rateLimited(1));
    String first = fulfil.send(Orders.body(order));
    assertThat(fulfil.awaitDeadLettered(List.of(first), settles)).as("rejected into the DLQ").isTrue();
    // The try names the DLQ message on the order's record after sending it, and the mapping deletes the source
    // message once the try has ended: only then is the verdict the function's last word.
    assertThat(fulfil.awaitDeleted(List.of(first), settles)).as("the rejecting try ended").isTrue();
    assertThat(ops.letterFor(order).path("action").asText()).as("a fresh partner verdict").isEqualTo("drop");

    OpsRun moved = ops.run("redrive", "--go", "--include-droppable", "--rate", "10");
    assertThat(moved.exitCode()).as(moved.out() + moved.err()).isZero();
    // Every receive a 429 whose next try comes after its Retry-After or the backoff (at least the 20 s
    // horizon in all), then the redrive policy's move.
    assertThat(Await.until(settles.multipliedBy(3), () -> fulfil.deadLetters().messages().values().stream()
        .anyMatch(message -> message.body().contains(order)))).as("back in the DLQ after its second life").isTrue();

    JsonNode story = ops.json("order", order);
    assertThat(story.path("record").path("tries").asInt()).as("one try, then a whole life of receives").as(story.toString()).isGreaterThanOrEqualTo(1 + BUDGET.maxReceiveCount());
    assertThat(story.path("record").path("last_reason").asText()).contains("429");
    JsonNode letter = ops.letterFor(order);
    assertThat(letter.path("action").asText()).as(letter.toString()).isEqualTo("redrive");
    // Moved by the redrive policy: its label is the first life's, not read.
    assertThat(letter.path("failure_class").asText()).as(letter.toString()).isEqualTo("receives_exhausted");
    assertThat(letter.path("why").asText()).as(letter.toString()).contains("tries ran out");
    OpsRun dryRun = ops.run("redrive");
    assertThat(dryRun.out()).contains("1 to redrive, 0 to drop first");

    OpsRun redrive = ops.run("redrive", "--go", "--rate", "10");
    assertThat(redrive.exitCode()).as(redrive.out() + redrive.err()).isZero();
    fulfil.partner().awaitBookings(order, 1, settles);
    Await.until(settles, () -> fulfil.deadLetters().messages().isEmpty());
    assertThat(fulfil.partner().bookingsFor(order)).hasSize(1);
    assertThat(fulfil.deadLetters().messages()).isEmpty();
  }
}
