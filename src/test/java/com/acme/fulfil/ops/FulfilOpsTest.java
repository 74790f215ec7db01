package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.Orders;
import com.acme.fulfil.system.harness.TestBudgets;
import com.acme.fulfil.timing.TimingBudget;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * On-call's command against a running local deployment of the packaged function, with the variables
 * {@code ./run-local --serve} prints: from the alarm to the redrive, as docs/runbook.md's DLQ page
 * goes, judged by what the partner booked and what the queues hold; and the drift check catching a
 * visibility timeout changed by hand.
 */
@OnSelectedBackend
class FulfilOpsTest {
  /**
   * The stack's default timing at 1/150 as far as the queues go (12 s visibility, 5 receives), which is
   * what {@code check} compares; the function gets {@link TestBudgets#quick()}'s partner numbers inside
   * the same 2 s timeout, since the defaults at that scale leave a try 33 ms to spare.
   */
  private static final int TIME_SCALE = 150;
  private static final ObjectMapper JSON = new ObjectMapper();

  @AutoClose
  private static FulfilOrderUnderTest fulfil;
  private static Map<String, String> env;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    assertThat(TestBudgets.quick().visibilityTimeout()).isEqualTo(TimingBudget.defaults().scaledDown(TIME_SCALE).visibilityTimeout());
    fulfil = FulfilOrderUnderTest.on(backend, "ops").budget(TestBudgets.quick()).start();
    env = fulfil.runbookEnvironment(TIME_SCALE).variables();
  }

  @Test
  void fromTheDlqAlarmToTheRedriveNothingIsBookedTwiceAndNothingIsLost(@TempDir Path archive) throws Exception {
    Duration settles = Duration.ofSeconds(60);
    String booked = Orders.newId("ORD-OPS-BOOKED");
    String rejected = Orders.newId("ORD-OPS-422");
    String exhausted = Orders.newId("ORD-OPS-EXHAUSTED");
    fulfil.partner().script().forOrder(rejected, Reaction.addressRejected());
    String bookedMessage = fulfil.send(Orders.body(booked));
    String rejectedMessage = fulfil.send(Orders.body(rejected));
    String invalidMessage = fulfil.send("{\"order_id\":\"ORD-OPS-INVALID\",\"service\":\"teleport\"}");
    assertThat(fulfil.awaitDeleted(List.of(bookedMessage), settles)).as("the good order booked").isTrue();
    assertThat(fulfil.awaitDeadLettered(List.of(rejectedMessage, invalidMessage), settles)).as("poison in the DLQ").isTrue();
    // What the redrive policy leaves after five failed receives: the message as it was sent, nothing added.
    String dlqUrl = env.get("DLQ_URL");
    String exhaustedMessage = fulfil.sqs().sendMessage(r -> r.queueUrl(dlqUrl).messageBody(Orders.body(exhausted))).messageId();
    String bookedCopy = fulfil.sqs().sendMessage(r -> r.queueUrl(dlqUrl).messageBody(Orders.body(booked))).messageId();

    JsonNode story = json("order", booked);
    assertThat(story.path("record").path("status").asText()).isEqualTo("COMPLETED");
    // A loaded machine can leave a first try too little of its 2 s to start a booking: the next one books.
    assertThat(story.path("record").path("tries").asInt()).as(story.toString()).isPositive();
    assertThat(story.path("record").path("last_outcome").asText()).isEqualTo("booked");
    assertThat(story.path("partner_bookings")).hasSize(1);
    assertThat(story.path("verdict").asText()).isEqualTo("booked once");
    assertThat(text("order", rejected)).contains("last outcome: partner_rejected").contains("422")
        .contains("no booking for this order").contains("not booked");

    JsonNode dlq = json("dlq");
    assertThat(dlq.path("messages").asInt()).isEqualTo(4);
    Map<String, JsonNode> byMessage = new java.util.HashMap<>();
    dlq.path("dead_letters").forEach(letter -> byMessage.put(letter.path("message_id").asText(), letter));
    assertThat(byMessage.get(exhaustedMessage).path("failure_class").asText()).isEqualTo("receives_exhausted");
    assertThat(byMessage.get(exhaustedMessage).path("action").asText()).isEqualTo("redrive");
    assertThat(byMessage.get(bookedCopy).path("order_booked").asBoolean()).isTrue();
    assertThat(byMessage.get(bookedCopy).path("action").asText()).isEqualTo("drop");
    List<String> droppable = StreamSupport.stream(dlq.path("dead_letters").spliterator(), false)
        .filter(letter -> letter.path("action").asText().equals("drop"))
        .map(letter -> letter.path("message_id").asText()).toList();
    assertThat(droppable).hasSize(3);
    JsonNode rejectedLetter = StreamSupport.stream(dlq.path("dead_letters").spliterator(), false)
        .filter(letter -> rejected.equals(letter.path("order_id").asText())).findFirst().orElseThrow();
    assertThat(rejectedLetter.path("failure_class").asText()).isEqualTo("partner_rejected");
    assertThat(rejectedLetter.path("reason").asText()).contains("422");
    assertThat(rejectedLetter.path("seconds_left").asLong()).isPositive();

    OpsRun dryRun = run("redrive");
    assertThat(dryRun.exitCode()).isZero();
    assertThat(dryRun.out()).contains("1 to redrive, 3 to drop first").contains("dry run: nothing moved");
    assertThat(run("redrive", "--go").exitCode()).as("refused while there is something to drop").isEqualTo(1);

    List<String> dropArgs = new ArrayList<>(List.of("drop", "--archive", archive.toString()));
    dropArgs.addAll(droppable);
    OpsRun drop = run(dropArgs.toArray(String[]::new));
    assertThat(drop.exitCode()).isZero();
    for (String id : droppable) {
      assertThat(JSON.readTree(Files.readString(archive.resolve(id + ".json"))).path("body").asText()).isNotBlank();
    }
    assertThat(json("dlq").path("messages").asInt()).isEqualTo(1);

    OpsRun redrive = run("redrive", "--go", "--rate", "10");
    assertThat(redrive.exitCode()).as(redrive.err()).isZero();
    fulfil.partner().awaitBookings(exhausted, 1, settles);
    Await.until(settles, () -> fulfil.deadLetters().messages().isEmpty());
    assertThat(fulfil.partner().bookingsFor(exhausted)).hasSize(1);
    assertThat(fulfil.partner().bookingsFor(booked)).as("the booked order's copy was dropped, not booked").hasSize(1);
    assertThat(fulfil.partner().bookingsFor(rejected)).isEmpty();
    Figures.print("ops drill: 4 dead letters read, 3 dropped to %s, 1 redriven and booked once", archive);
  }

  /**
   * A label travels with a redrive: the partner refuses an order's address (the function labels it
   * partner_rejected), then says it takes it after all; on-call redrives it, the partner rate limits
   * it five times and the redrive policy moves it to the DLQ again, still carrying the first life's
   * label. The order is good: {@code dlq} must not say drop, nor {@code redrive} refuse, on that label.
   */
  @Test
  void aRedrivenOrderThatRanOutOfReceivesIsNotToldToBeDroppedOnItsEarlierLifesLabel() throws Exception {
    Duration settles = Duration.ofSeconds(60);
    String order = Orders.newId("ORD-OPS-RELABELLED");
    fulfil.partner().script().forOrder(order, 1, Reaction.addressRejected()).forOrder(order, 5, Reaction.rateLimited(1));
    String first = fulfil.send(Orders.body(order));
    assertThat(fulfil.awaitDeadLettered(List.of(first), settles)).as("rejected into the DLQ").isTrue();
    assertThat(letterFor(order).path("action").asText()).as("a fresh partner verdict").isEqualTo("drop");

    OpsRun moved = run("redrive", "--go", "--include-droppable", "--rate", "10");
    assertThat(moved.exitCode()).as(moved.out() + moved.err()).isZero();
    // Five receives, each a 429 after the visibility timeout, then the redrive policy's move.
    assertThat(Await.until(settles.multipliedBy(2), () -> fulfil.deadLetters().messages().values().stream()
        .anyMatch(message -> message.body().contains(order)))).as("back in the DLQ after its second life").isTrue();

    JsonNode story = json("order", order);
    assertThat(story.path("record").path("tries").asInt()).as("one try, then five receives").as(story.toString()).isGreaterThanOrEqualTo(6);
    assertThat(story.path("record").path("last_reason").asText()).contains("429");
    JsonNode letter = letterFor(order);
    assertThat(letter.path("action").asText()).as(letter.toString()).isEqualTo("redrive");
    assertThat(letter.path("why").asText()).as(letter.toString()).contains("earlier life");
    OpsRun dryRun = run("redrive");
    assertThat(dryRun.out()).contains("1 to redrive, 0 to drop first");

    OpsRun redrive = run("redrive", "--go", "--rate", "10");
    assertThat(redrive.exitCode()).as(redrive.out() + redrive.err()).isZero();
    fulfil.partner().awaitBookings(order, 1, settles);
    Await.until(settles, () -> fulfil.deadLetters().messages().isEmpty());
    assertThat(fulfil.partner().bookingsFor(order)).hasSize(1);
    assertThat(fulfil.deadLetters().messages()).isEmpty();
  }

  private static JsonNode letterFor(String orderId) throws Exception {
    return StreamSupport.stream(json("dlq").path("dead_letters").spliterator(), false)
        .filter(letter -> orderId.equals(letter.path("order_id").asText())).findFirst().orElseThrow();
  }

  @Test
  void checkFindsTheVisibilityTimeoutSomeoneSetBackTo30Seconds() throws Exception {
    OpsRun clean = run("check");
    assertThat(clean.exitCode()).as(clean.out()).isZero();
    assertThat(clean.out()).contains("no drift found");

    String queueUrl = env.get("QUEUE_URL");
    fulfil.sqs().setQueueAttributes(r -> r.queueUrl(queueUrl).attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "30")));
    try {
      OpsRun drifted = run("check");
      assertThat(drifted.exitCode()).isEqualTo(1);
      assertThat(drifted.out()).contains("orders-to-fulfil's visibility timeout is 30 s, the budget says 12 s");
      assertThat(json("check").path("findings")).hasSize(1);
    } finally {
      fulfil.sqs().setQueueAttributes(r -> r.queueUrl(queueUrl).attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "12")));
    }
  }

  @Test
  void aStackThatIsNotThereOrACommandThatIsWrongIsSaidInOneSentence() throws Exception {
    OpsRun noRegion = new OpsRun(Map.of(), "check");
    assertThat(noRegion.exitCode()).isEqualTo(2);
    assertThat(noRegion.err()).contains("no AWS region");
    OpsRun missingVariable = new OpsRun(Map.of("QUEUE_URL", "http://127.0.0.1:1/q"), "dlq");
    assertThat(missingVariable.err()).contains("DLQ_URL is not");
    assertThat(run("order").err()).contains("order takes one ORDER_ID");
    assertThat(run("redrive", "--rate", "0").err()).contains("--rate takes messages a second from 1 to 500");
  }

  private static JsonNode json(String... args) throws Exception {
    List<String> withJson = new ArrayList<>(List.of(args));
    withJson.add("--json");
    OpsRun run = run(withJson.toArray(String[]::new));
    return JSON.readTree(run.out());
  }

  private static String text(String... args) throws Exception {
    return run(args).out();
  }

  private static OpsRun run(String... args) throws Exception {
    return new OpsRun(env, args);
  }
}
