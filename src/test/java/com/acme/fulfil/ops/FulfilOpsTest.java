package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.records.DeadLetterAttributes;
import com.acme.fulfil.contract.records.OrderRecordLayout;
import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.QueueDepth;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.FaultyEndpoint;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.FunctionLogLines;
import com.acme.fulfil.system.harness.Orders;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * On-call's command against a running local deployment of the packaged function, with the variables
 * {@code ./run-local --serve} prints: from the alarm to the redrive, as docs/runbook.md's DLQ page
 * goes, judged by what the partner booked and what the queues hold. {@code check} on the local stack has
 * a class of its own, {@link LocalStackCheckTest}, and so has a redriven order's second life, {@link RedrivenOrderTest}.
 */
@OnSelectedBackend
class FulfilOpsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @AutoClose
  private static FulfilOrderUnderTest fulfil;
  private static Map<String, String> env;
  private static OpsOnServe ops;
  /** Why the tests that drop unlabelled messages (whose verdict is redrive) force it: their subject is how drop acts. */
  private static final String FORCED = "a test of how drop acts on the messages it names";

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "ops").budget(OpsOnServe.BUDGET).start();
    env = fulfil.runbookEnvironment().variables();
    ops = new OpsOnServe(env);
  }

  /**
   * Each test starts from empty queues: a poison message one test leaves in the DLQ would be redriven
   * by the next test's {@code redrive --include-droppable} and come straight back, a move task that
   * never ends.
   */
  @BeforeEach
  void emptyQueues() {
    fulfil.sqs().purgeQueue(r -> r.queueUrl(fulfil.queues().source().url()));
    fulfil.sqs().purgeQueue(r -> r.queueUrl(fulfil.queues().deadLetter().orElseThrow().url()));
    fulfil.partner().script().clear();
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

    JsonNode story = ops.json("order", booked);
    assertThat(story.path("record").path("status").asText()).isEqualTo("COMPLETED");
    // A loaded machine can leave a first try too little of its 2 s to start a booking: the next one books.
    assertThat(story.path("record").path("tries").asInt()).as(story.toString()).isPositive();
    assertThat(story.path("record").path("last_outcome").asText()).isEqualTo("booked");
    assertThat(story.path("partner_bookings")).hasSize(1);
    assertThat(story.path("verdict").asText()).isEqualTo("booked once");
    assertThat(ops.run("order", rejected).out()).contains("last outcome: partner_rejected").contains("422")
        .contains("no booking for this order").contains("not booked");

    JsonNode dlq = ops.json("dlq");
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

    OpsRun dryRun = ops.run("redrive");
    assertThat(dryRun.exitCode()).isZero();
    assertThat(dryRun.out()).contains("1 to redrive, 3 to drop first").contains("dry run: nothing moved");
    assertThat(ops.run("redrive", "--go").exitCode()).as("refused while there is something to drop").isEqualTo(1);

    List<String> dropArgs = new ArrayList<>(List.of("drop", "--archive", archive.toString()));
    dropArgs.addAll(droppable);
    OpsRun drop = ops.run(dropArgs.toArray(String[]::new));
    assertThat(drop.exitCode()).isZero();
    for (String id : droppable) {
      assertThat(JSON.readTree(Files.readString(archive.resolve(id + ".json"))).path("body").asText()).isNotBlank();
    }
    assertThat(ops.json("dlq").path("messages").asInt()).isEqualTo(1);

    OpsRun redrive = ops.run("redrive", "--go", "--rate", "10");
    assertThat(redrive.exitCode()).as(redrive.err()).isZero();
    fulfil.partner().awaitBookings(exhausted, 1, settles);
    Await.until(settles, () -> fulfil.deadLetters().messages().isEmpty());
    assertThat(fulfil.partner().bookingsFor(exhausted)).hasSize(1);
    assertThat(fulfil.partner().bookingsFor(booked)).as("the booked order's copy was dropped, not booked").hasSize(1);
    assertThat(fulfil.partner().bookingsFor(rejected)).isEmpty();
    Figures.print("ops drill: 4 dead letters read, 3 dropped to %s, 1 redriven and booked once", archive);
  }

  /**
   * AWS deletes only with a message's newest receipt handle: a delete with an older one "succeeds, but
   * the message might not be deleted" (DeleteMessage's documentation); ElasticMQ refuses it instead, so
   * the proxy answers as AWS does. Here the read's hold ran out before the delete and someone peeked at
   * the message meanwhile (as {@code dlq} does): the drop must still delete it, or say it could not.
   * The message carries a binary and a number attribute: the archive keeps them, and replays to the
   * same message attributes (SQS's MD5 of them matches).
   */
  @Test
  void aDropWhoseHoldRanOutBeforeItsDeleteStillDeletesAndArchivesTheWholeMessage(@TempDir Path archive) throws Exception {
    String dlqUrl = env.get("DLQ_URL");
    byte[] signature = {0, (byte) 0xff, 0x10, (byte) 0x80, 42};
    Map<String, MessageAttributeValue> attributes = Map.of(
        "signature", MessageAttributeValue.builder().dataType("Binary").binaryValue(SdkBytes.fromByteArray(signature)).build(),
        "priority", MessageAttributeValue.builder().dataType("Number.int").stringValue("7").build(),
        "channel", MessageAttributeValue.builder().dataType("String").stringValue("web").build());
    String body = Orders.body(Orders.newId("ORD-OPS-DROPPED"));
    String messageId = fulfil.sqs().sendMessage(r -> r.queueUrl(dlqUrl).messageBody(body).messageAttributes(attributes))
        .messageId();

    OpsRun drop;
    try (FaultyEndpoint sqs = FaultyEndpoint.inFrontOf(URI.create(env.get(AwsConnection.ENDPOINT_SQS)))) {
      sqs.answer("DeleteMessage", 1, request -> {
        String handle = JSON_READ.apply(request).path("ReceiptHandle").asText();
        fulfil.sqs().changeMessageVisibility(r -> r.queueUrl(dlqUrl).receiptHandle(handle).visibilityTimeout(0));
        fulfil.sqs().receiveMessage(r -> r.queueUrl(dlqUrl).visibilityTimeout(0));
        return "{}";
      });
      // Unlabelled, so dlq would redrive it: dropping it takes on-call's explicit reason.
      drop = new OpsRun(through(sqs), "drop", "--archive", archive.toString(), messageId, "--force", "--reason",
          "the order was sent again under a new id");
      assertThat(sqs.answered("DeleteMessage")).as("the stale delete answered as AWS does").isEqualTo(1);
    }
    assertThat(drop.exitCode()).as(drop.out() + drop.err()).isZero();
    assertThat(drop.out()).contains(messageId + ": archived to").contains("deleted from the DLQ");
    assertThat(QueueDepth.of(fulfil.sqs(), fulfil.queues().deadLetter().orElseThrow()).total()).as("left in the DLQ").isZero();

    JsonNode archived = JSON.readTree(Files.readString(archive.resolve(messageId + ".json")));
    assertThat(archived.path("body").asText()).isEqualTo(body);
    assertThat(archived.path("attributes").path("SentTimestamp").asText()).isNotBlank();
    JsonNode kept = archived.path("message_attributes");
    assertThat(kept.path("signature").path("DataType").asText()).isEqualTo("Binary");
    assertThat(Base64.getDecoder().decode(kept.path("signature").path("BinaryValue").asText())).isEqualTo(signature);
    assertThat(kept.path("priority").path("DataType").asText()).isEqualTo("Number.int");
    assertThat(kept.path("priority").path("StringValue").asText()).isEqualTo("7");

    Map<String, MessageAttributeValue> replayed = new java.util.HashMap<>();
    kept.properties().forEach(attribute -> {
      MessageAttributeValue.Builder value = MessageAttributeValue.builder().dataType(attribute.getValue().path("DataType").asText());
      if (attribute.getValue().has("StringValue")) {
        value.stringValue(attribute.getValue().path("StringValue").asText());
      }
      if (attribute.getValue().has("BinaryValue")) {
        value.binaryValue(SdkBytes.fromByteArray(Base64.getDecoder().decode(attribute.getValue().path("BinaryValue").asText())));
      }
      replayed.put(attribute.getKey(), value.build());
    });
    String replayQueue = fulfil.sqs().createQueue(r -> r.queueName("ops-replay")).queueUrl();
    try {
      var resent = fulfil.sqs().sendMessage(r -> r.queueUrl(replayQueue).messageBody(archived.path("body").asText())
          .messageAttributes(replayed));
      assertThat(resent.md5OfMessageAttributes()).as("the archive replays to the same attributes")
          .isEqualTo(archived.path("md5_of_message_attributes").asText());
      assertThat(resent.md5OfMessageBody()).isEqualTo(archived.path("md5_of_body").asText());
    } finally {
      fulfil.sqs().deleteQueue(r -> r.queueUrl(replayQueue));
    }
  }

  /**
   * ListMessageMoveTasks is eventually consistent: right after StartMessageMoveTask it may list no task
   * yet (the proxy answers so twice after the start). {@code redrive --go} waits for its task and
   * follows it to the end.
   */
  @Test
  void redriveWaitsForItsMoveTaskToBeListed() throws Exception {
    String order = Orders.newId("ORD-OPS-LISTED-LATE");
    fulfil.sqs().sendMessage(r -> r.queueUrl(env.get("DLQ_URL")).messageBody(Orders.body(order)));
    OpsRun redrive;
    try (FaultyEndpoint sqs = FaultyEndpoint.inFrontOf(URI.create(env.get(AwsConnection.ENDPOINT_SQS)))) {
      // The look before the start, and the first two after it.
      sqs.answer("ListMessageMoveTasks", 3, request -> "{\"Results\":[]}");
      redrive = new OpsRun(through(sqs), "redrive", "--go", "--rate", "10");
      assertThat(sqs.answered("ListMessageMoveTasks")).isEqualTo(3);
    }
    assertThat(redrive.exitCode()).as(redrive.out() + redrive.err()).isZero();
    assertThat(redrive.out()).contains("move task COMPLETED: 1 moved");
    fulfil.partner().awaitBookings(order, 1, Duration.ofSeconds(60));
    assertThat(fulfil.partner().bookingsFor(order)).hasSize(1);
    assertThat(QueueDepth.of(fulfil.sqs(), fulfil.queues().deadLetter().orElseThrow()).total()).isZero();
  }

  /**
   * SQS takes at most 10 message attributes, 256 KiB in all, and a string value only of its documented
   * characters. Whatever the producer set (none to ten, String, Number, custom and Binary types, one
   * named like a label attribute), every poison message reaches the DLQ on its first receive, its
   * producer's attributes as they were sent, and {@code dlq} gives its class and reason and says drop,
   * for an order the partner refused beside ten producer attributes too.
   */
  @Test
  void everyPoisonMessageIsLabelledOnItsFirstReceiveWhateverItsProducerSent(@TempDir Path archive) throws Exception {
    Map<String, Map<String, MessageAttributeValue>> sentByBody = new LinkedHashMap<>();
    Map<String, String> sourceByBody = new LinkedHashMap<>();
    for (int count = 0; count <= 10; count++) {
      String body = "{\"order_id\":\"" + Orders.newId("ORD-OPS-ATTRS-" + count) + "\",\"service\":\"teleport\"}";
      sentByBody.put(body, producerAttributes(count));
    }
    // The partner's verdict is one of its contract's codes: any other code proves nothing and holds the order
    // (PartnerAnswersTest), so only a contract code reaches a label.
    String rejected = Orders.newId("ORD-OPS-REFUSED");
    fulfil.partner().script().forOrder(rejected, new Reaction.Rejected(422, "address_rejected", "refused"));
    sentByBody.put(Orders.body(rejected), producerAttributes(10));
    // One after the other: ten cold containers at once on a loaded machine can outlast the 2 s timeout.
    // A try Lambda kills at its timeout judged nothing: the message comes back after the 12 s visibility
    // timeout. 45 s leaves room for two such kills (2 + 12 s each) and a try that ends, on a machine
    // twice as slow as one where a cold try takes 2 s.
    // Until the mapping deletes the source message (after a try that sent it returned): a try killed
    // after its send leaves a copy in the DLQ and the message comes back for another.
    boolean arrived = true;
    for (Map.Entry<String, Map<String, MessageAttributeValue>> sent : sentByBody.entrySet()) {
      String source = fulfil.send(sent.getKey(), sent.getValue());
      sourceByBody.put(sent.getKey(), source);
      arrived &= Await.until(Duration.ofSeconds(45), () -> fulfil.invocations().deleted(source));
    }
    // Every copy, so that the drop leaves the DLQ as it was.
    List<Message> copies = fulfil.deadLetters().all().stream().filter(message -> sentByBody.containsKey(message.body())).toList();
    Map<String, Message> dead = new LinkedHashMap<>();
    copies.forEach(message -> dead.putIfAbsent(message.body(), message));
    Map<String, JsonNode> listed = new LinkedHashMap<>();
    ops.json("dlq").path("dead_letters").forEach(letter -> listed.put(letter.path("message_id").asText(), letter));

    SoftAssertions softly = new SoftAssertions();
    softly.assertThat(arrived).as("every source message settled").isTrue();
    sentByBody.forEach((body, attributes) -> {
      String name = attributes.size() + " producer attributes, order " + body.substring(0, 40);
      // The promise is per judgement: the first receive that judges it sends it to the DLQ. Were the label
      // refused (the bug this guards), that receive would report a failure and five would follow. A receive
      // judged nothing if Lambda killed it, or if it found too little time left to ask the partner and
      // returned the message (a loaded machine can spend a try's time before its booking).
      String source = sourceByBody.get(body);
      long declinedForTime = FunctionLogLines.where("message_id", source).stream()
          .filter(line -> line.path("message").asText().contains(OrderRecordLayout.NO_TIME_TO_BOOK))
          .map(line -> line.path("function_request_id").asText()).distinct().count();
      softly.assertThat(fulfil.invocations().receives(source) - fulfil.invocations().killedAtTimeout(source) - declinedForTime)
          .as(name + ": receives that judged it").isEqualTo(1);
      Message message = dead.get(body);
      softly.assertThat(message).as(name + ": in the DLQ").isNotNull();
      if (message == null) {
        return;
      }
      softly.assertThat(message.messageAttributes()).as(name + ": the producer's attributes as sent").containsAllEntriesOf(attributes);
      message.messageAttributes().values().stream().filter(value -> value.stringValue() != null).forEach(value ->
          softly.assertThat(sendable(value.stringValue())).as(name + ": every value in SQS's characters: " + value).isTrue());
      JsonNode letter = listed.getOrDefault(message.messageId(), JSON.createObjectNode());
      boolean refused = body.contains(rejected);
      softly.assertThat(letter.path("failure_class").asText()).as(name + ": class, " + letter)
          .isEqualTo(refused ? "partner_rejected" : "invalid_message");
      // From the label where SQS's limits left it room (sendable and bounded there), else from the body or the
      // order's record, which keeps the whole reason.
      softly.assertThat(letter.path("reason").asText()).as(name + ": reason")
          .contains(refused ? "partner rejected the order: 422 address_rejected" : "invalid order message: ");
      MessageAttributeValue label = message.messageAttributes().get(DeadLetterAttributes.FAILURE_REASON);
      softly.assertThat(label == null ? attributes.size() + 6 > 10 || attributes.containsKey(DeadLetterAttributes.FAILURE_CLASS)
          : sendable(label.stringValue()) && label.stringValue().length() <= 1_024)
          .as(name + ": labelled in SQS's characters, at most 1,024 each, wherever SQS leaves room: " + label).isTrue();
      softly.assertThat(letter.path("order_id").asText()).as(name + ": order").isEqualTo(orderIdIn(body));
      softly.assertThat(letter.path("action").asText()).as(name + ": action, " + letter.path("why")).isEqualTo("drop");
    });
    List<String> dropArgs = new ArrayList<>(List.of("drop", "--archive", archive.toString()));
    copies.forEach(message -> dropArgs.add(message.messageId()));
    OpsRun drop = ops.run(dropArgs.toArray(String[]::new));
    softly.assertThat(drop.exitCode()).as(drop.out() + drop.err()).isZero();
    softly.assertAll();
    assertThat(fulfil.partner().bookingsFor(rejected)).as("the refused order's bookings").isEmpty();
    long killed = sourceByBody.values().stream().mapToLong(fulfil.invocations()::killedAtTimeout).sum();
    Duration slowest = sourceByBody.values().stream().map(fulfil.invocations()::longestRun).max(Duration::compareTo).orElseThrow();
    Figures.print("poison with 0..10 producer attributes: %d message(s) in the DLQ, each labelled by the first receive that"
        + " ended, with its reason for dlq; %d tr%s killed at the 2 s timeout; the slowest receive %d ms", dead.size(), killed,
        killed == 1 ? "y" : "ies", slowest.toMillis());
  }

  /**
   * A labelled copy N stands for source message M, and M itself is in the DLQ too (the redrive policy
   * moved it): {@code drop M} drops M and only M. A source id two copies stand for drops neither.
   */
  @Test
  void dropTakesTheMessageItNamesNotACopyThatStandsForIt(@TempDir Path archive) throws Exception {
    String dlqUrl = env.get("DLQ_URL");
    String body = Orders.body(Orders.newId("ORD-OPS-NAMED"));
    String original = fulfil.sqs().sendMessage(r -> r.queueUrl(dlqUrl).messageBody(body)).messageId();
    String copy = fulfil.sqs().sendMessage(r -> r.queueUrl(dlqUrl).messageBody(body)
        .messageAttributes(Map.of(DeadLetterAttributes.SOURCE_MESSAGE_ID, text(original)))).messageId();
    String elsewhere = "a-source-message-no-longer-anywhere";
    List<String> twins = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      twins.add(fulfil.sqs().sendMessage(r -> r.queueUrl(dlqUrl).messageBody(body)
          .messageAttributes(Map.of(DeadLetterAttributes.SOURCE_MESSAGE_ID, text(elsewhere)))).messageId());
    }

    // Unlabelled messages, whose verdict is redrive: these drops are forced, the way on-call forces one.
    OpsRun named = ops.run("drop", "--archive", archive.toString(), original, "--force", "--reason", FORCED);
    OpsRun ambiguous = ops.run("drop", "--archive", archive.toString(), elsewhere, "--force", "--reason", FORCED);
    List<String> left = StreamSupport.stream(ops.json("dlq").path("dead_letters").spliterator(), false)
        .map(letter -> letter.path("message_id").asText()).toList();
    ops.run("drop", "--archive", archive.toString(), copy, twins.get(0), twins.get(1), "--force", "--reason", FORCED);

    SoftAssertions softly = new SoftAssertions();
    softly.assertThat(named.out()).as("drop " + original).contains("dropped 1 of 1").contains(original + ": archived to");
    softly.assertThat(left).as("left after both drops").contains(copy).containsAll(twins).doesNotContain(original);
    softly.assertThat(ambiguous.exitCode()).as(ambiguous.out()).isEqualTo(1);
    softly.assertThat(ambiguous.out()).as("a source id two messages stand for").contains("dropped 0 of 1")
        .contains(twins.get(0)).contains(twins.get(1));
    softly.assertAll();
  }

  /** A producer's attribute named order_id does not speak for the order: the body does. */
  @Test
  void dlqChecksTheBodysOrderNotAProducerAttributeNamedOrderId(@TempDir Path archive) throws Exception {
    String booked = Orders.newId("ORD-OPS-ATTR-BOOKED");
    assertThat(fulfil.awaitDeleted(List.of(fulfil.send(Orders.body(booked))), Duration.ofSeconds(60))).isTrue();
    String notBooked = Orders.newId("ORD-OPS-BODY");
    String messageId = fulfil.sqs().sendMessage(r -> r.queueUrl(env.get("DLQ_URL")).messageBody(Orders.body(notBooked))
        .messageAttributes(Map.of(DeadLetterAttributes.ORDER_ID, text(booked)))).messageId();

    JsonNode letter = StreamSupport.stream(ops.json("dlq").path("dead_letters").spliterator(), false)
        .filter(l -> messageId.equals(l.path("message_id").asText())).findFirst().orElseThrow();
    ops.run("drop", "--archive", archive.toString(), messageId, "--force", "--reason", FORCED);

    assertThat(letter.path("order_id").asText()).as(letter.toString()).isEqualTo(notBooked);
    assertThat(letter.path("order_booked").asBoolean()).isFalse();
    assertThat(letter.path("action").asText()).isEqualTo("redrive");
  }

  /**
   * A short poll asks a sample of SQS's servers and may answer empty while the queue holds messages
   * (ReceiveMessage's documentation); the proxy answers every short poll so. {@code dlq} and {@code drop}
   * still see the message, and drop says it is gone only when it is.
   */
  @Test
  void dlqAndDropSeeAMessageThatShortPollsMiss(@TempDir Path archive) throws Exception {
    String messageId = fulfil.sqs().sendMessage(r -> r.queueUrl(env.get("DLQ_URL"))
        .messageBody(Orders.body(Orders.newId("ORD-OPS-SAMPLED")))).messageId();
    OpsRun listed;
    OpsRun drop;
    try (FaultyEndpoint sqs = FaultyEndpoint.inFrontOf(URI.create(env.get(AwsConnection.ENDPOINT_SQS)))) {
      sqs.answer("ReceiveMessage", request -> JSON_READ.apply(request).path("WaitTimeSeconds").asInt(0) == 0, request -> "{}");
      Map<String, String> viaProxy = through(sqs);
      listed = new OpsRun(viaProxy, "dlq");
      drop = new OpsRun(viaProxy, "drop", "--archive", archive.toString(), messageId, "--force", "--reason", FORCED);
    }
    boolean gone = !fulfil.deadLetters().messages().containsKey(messageId);
    if (!gone) {
      ops.run("drop", "--archive", archive.toString(), messageId, "--force", "--reason", FORCED);
    }
    assertThat(listed.out()).as("dlq").contains("message " + messageId);
    assertThat(drop.out()).as("drop").contains("dropped 1 of 1");
    assertThat(gone).as("gone from the DLQ").isTrue();
  }

  /**
   * {@code order}'s verdict stands on the partner's answer: without it (a rotated key: 401) it is no
   * verdict, whatever the record says. For an order the partner refused, it says what {@code dlq} says.
   */
  @Test
  void orderGivesNoVerdictWithoutThePartnersAnswerAndAgreesWithDlqOnARefusal() throws Exception {
    Duration settles = Duration.ofSeconds(60);
    // In upper case, as the checkout service writes its ids: the same id in lower case is another order id.
    String booked = Orders.newId("ORD-OPS-ASKED").toUpperCase(java.util.Locale.ROOT);
    String rejected = Orders.newId("ORD-OPS-REFUSED");
    fulfil.partner().script().forOrder(rejected, Reaction.addressRejected());
    String bookedMessage = fulfil.send(Orders.body(booked));
    String rejectedMessage = fulfil.send(Orders.body(rejected));
    assertThat(fulfil.awaitDeleted(List.of(bookedMessage), settles)).as("booked").isTrue();
    assertThat(fulfil.awaitDeadLettered(List.of(rejectedMessage), settles)).as("refused into the DLQ").isTrue();

    fulfil.partner().script().nextLookups(10, new Reaction.Answer(401, "{\"message\":\"Unauthorized\"}"));
    OpsRun unasked = ops.run("order", booked);
    fulfil.partner().script().clear();
    // The partner lost or cancelled the booking the record names: a script confirming the order must not pass.
    fulfil.partner().script().nextLookups(1, new Reaction.Answer(200, "{\"shipments\":[]}"));
    OpsRun lostAtPartner = ops.run("order", booked);
    fulfil.partner().script().clear();
    OpsRun asked = ops.run("order", booked);
    OpsRun refused = ops.run("order", rejected);
    // Order ids are case-sensitive: the id in the wrong case is not "not booked".
    OpsRun wrongCase = ops.run("order", booked.toLowerCase(java.util.Locale.ROOT));

    assertThat(unasked.exitCode()).as(unasked.out()).isEqualTo(1);
    assertThat(unasked.out()).contains("verdict  not known: the partner could not be asked").contains("The record says: booked.").doesNotContain("booked once");
    assertThat(lostAtPartner.exitCode()).as(lostAtPartner.out()).isEqualTo(1);
    assertThat(lostAtPartner.out()).contains("recorded as booked but the partner has no booking for it");
    assertThat(asked.exitCode()).as(asked.out()).isZero();
    assertThat(asked.out()).contains("verdict  booked once");
    assertThat(wrongCase.exitCode()).as(wrongCase.out()).isEqualTo(1);
    assertThat(wrongCase.out()).contains("Order ids are case-sensitive").contains("a record exists under " + booked);
    assertThat(refused.out()).contains("its dead letter's verdict is drop").doesNotContain("redrive");
    assertThat(ops.letterFor(rejected).path("action").asText()).isEqualTo("drop");
  }

  /**
   * Reading the DLQ hides what it reads from every other reader for a while. Here another reader holds
   * two of five messages: {@code dlq} must say it read three of five, and exit 1, not list three as all.
   */
  @Test
  void dlqSaysHowManyItReadOfHowManyWhileAnotherReaderHoldsSome() throws Exception {
    String dlqUrl = env.get("DLQ_URL");
    for (int i = 0; i < 5; i++) {
      fulfil.sqs().sendMessage(r -> r.queueUrl(dlqUrl).messageBody(Orders.body(Orders.newId("ORD-OPS-HELD"))));
    }
    List<Message> held = new ArrayList<>();
    while (held.size() < 2) {
      held.addAll(fulfil.sqs().receiveMessage(r -> r.queueUrl(dlqUrl).maxNumberOfMessages(2 - held.size())
          .waitTimeSeconds(1).visibilityTimeout(600)).messages());
    }

    OpsRun listed = ops.run("dlq");
    JsonNode answer = ops.json("dlq");

    assertThat(listed.exitCode()).as(listed.out()).isEqualTo(1);
    assertThat(listed.out()).as("the first line").startsWith("read 3 of the 5 message(s)").contains("Run the command again");
    assertThat(answer.path("messages").asInt()).isEqualTo(3);
    assertThat(answer.path("messages_counted").asInt()).isEqualTo(5);
    assertThat(answer.path("complete").asBoolean(true)).isFalse();
    OpsRun redrive = ops.run("redrive");
    assertThat(redrive.exitCode()).as(redrive.out()).isEqualTo(1);
    assertThat(redrive.out()).contains("the counts above are partial");
    // Handed back: nothing this test held stays hidden from the next.
    held.forEach(message -> fulfil.sqs().changeMessageVisibility(r -> r.queueUrl(dlqUrl)
        .receiptHandle(message.receiptHandle()).visibilityTimeout(0)));
  }

  /**
   * A message another reader holds (here {@code aws sqs receive-message --visibility-timeout} on it)
   * cannot be received: {@code drop} must not call it gone, or on-call believes it and the order expires
   * in the DLQ. It says the message may still be there, deletes nothing and exits 1; once the message is
   * handed back, the same drop drops it, and a third says it is gone.
   */
  @Test
  void dropNeverCallsAMessageAnotherReaderHoldsGone(@TempDir Path archive) throws Exception {
    String dlqUrl = env.get("DLQ_URL");
    String messageId = fulfil.sqs().sendMessage(r -> r.queueUrl(dlqUrl)
        .messageBody(Orders.body(Orders.newId("ORD-OPS-HELD-ELSEWHERE")))).messageId();
    List<Message> held = new ArrayList<>();
    while (held.isEmpty()) {
      held.addAll(fulfil.sqs().receiveMessage(r -> r.queueUrl(dlqUrl).waitTimeSeconds(1).visibilityTimeout(600)).messages());
    }
    String[] dropIt = {"drop", "--archive", archive.toString(), messageId, "--force", "--reason", FORCED};

    OpsRun whileHeld = ops.run(dropIt);
    JsonNode whileHeldJson = ops.json(dropIt);
    assertThat(archive.resolve(messageId + ".json")).as("nothing archived while another reader holds it").doesNotExist();
    fulfil.sqs().changeMessageVisibility(r -> r.queueUrl(dlqUrl).receiptHandle(held.getFirst().receiptHandle())
        .visibilityTimeout(0));
    OpsRun handedBack = ops.run(dropIt);
    OpsRun again = ops.run(dropIt);

    assertThat(whileHeld.exitCode()).as(whileHeld.out()).isEqualTo(1);
    assertThat(whileHeld.out()).contains(messageId + ": NOT found, and may still be in the DLQ: another reader holds 1")
        .doesNotContain("already");
    assertThat(whileHeldJson.path("held_elsewhere").asLong()).isEqualTo(1);
    assertThat(handedBack.exitCode()).as(handedBack.out()).isZero();
    assertThat(handedBack.out()).contains("dropped 1 of 1");
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.out()).contains(messageId + ": not in the DLQ: nothing else is held there");
  }

  /**
   * Several on-call engineers at once: each run hides what it reads from the others while it reads.
   * However their reads interleave, a run that lists fewer than all five says so and exits 1.
   */
  @Test
  void concurrentDlqRunsNeverCallAPartialListComplete() throws Exception {
    String dlqUrl = env.get("DLQ_URL");
    for (int i = 0; i < 5; i++) {
      fulfil.sqs().sendMessage(r -> r.queueUrl(dlqUrl).messageBody(Orders.body(Orders.newId("ORD-OPS-CONCURRENT"))));
    }
    int readers = 3;
    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(readers);
    List<java.util.concurrent.Future<OpsRun>> runs = new ArrayList<>();
    try (var pool = java.util.concurrent.Executors.newFixedThreadPool(readers)) {
      for (int i = 0; i < readers; i++) {
        runs.add(pool.submit(() -> {
          start.await();
          return ops.run("dlq", "--json");
        }));
      }
    }
    SoftAssertions softly = new SoftAssertions();
    List<Integer> seen = new ArrayList<>();
    for (var future : runs) {
      OpsRun reader = future.get();
      JsonNode answer = JSON.readTree(reader.out());
      seen.add(answer.path("messages").asInt());
      boolean sawAll = answer.path("messages").asInt() == 5;
      softly.assertThat(answer.path("complete").asBoolean()).as(reader.out()).isEqualTo(sawAll);
      softly.assertThat(reader.exitCode()).as(reader.out()).isEqualTo(sawAll ? 0 : 1);
    }
    softly.assertAll();
    Figures.print("%d dlq runs at once over 5 dead letters read %s of them; each that read fewer said so", readers, seen);
    JsonNode after = ops.json("dlq");
    assertThat(after.path("messages").asInt()).as("every run handed back what it read").isEqualTo(5);
  }

  private static Map<String, MessageAttributeValue> producerAttributes(int count) {
    Map<String, MessageAttributeValue> attributes = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      byte[] bytes = {0, (byte) 0xff, (byte) i, (byte) 0x80};
      attributes.put(i == 3 ? DeadLetterAttributes.FAILURE_CLASS : "producer-" + i, switch (i % 5) {
        case 0 -> MessageAttributeValue.builder().dataType("Binary").binaryValue(SdkBytes.fromByteArray(bytes)).build();
        case 1 -> MessageAttributeValue.builder().dataType("Number.float").stringValue("3.25").build();
        case 2 -> MessageAttributeValue.builder().dataType("Binary.gzip").binaryValue(SdkBytes.fromByteArray(bytes)).build();
        case 3 -> text("the producer's own " + i);
        default -> MessageAttributeValue.builder().dataType("Number").stringValue(Integer.toString(i)).build();
      });
    }
    return attributes;
  }

  /** SQS's documented characters: #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF. */
  private static boolean sendable(String value) {
    return value.codePoints().allMatch(c -> c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
        || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF));
  }

  private static String orderIdIn(String body) {
    return JSON_READ.apply(body).path("order_id").asText();
  }

  private static MessageAttributeValue text(String value) {
    return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
  }

  private static final java.util.function.Function<String, JsonNode> JSON_READ = text -> {
    try {
      return JSON.readTree(text);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  };

  /** The command's variables with SQS reached through {@code sqs}. */
  private static Map<String, String> through(FaultyEndpoint sqs) {
    Map<String, String> viaProxy = new java.util.HashMap<>(env);
    viaProxy.put(AwsConnection.ENDPOINT_SQS, sqs.uri().toString());
    return viaProxy;
  }

  @Test
  void aStackThatIsNotThereOrACommandThatIsWrongIsSaidInOneSentence() throws Exception {
    OpsRun noRegion = new OpsRun(Map.of(), "check");
    assertThat(noRegion.exitCode()).isEqualTo(2);
    assertThat(noRegion.err()).contains("no AWS region");
    OpsRun missingVariable = new OpsRun(Map.of("FULFIL_OPS_STACK", "local", "QUEUE_URL", "http://127.0.0.1:1/q"), "dlq");
    assertThat(missingVariable.err()).contains("DLQ_URL is not");
    assertThat(ops.run("order").err()).contains("order takes one ORDER_ID");
    assertThat(ops.run("redrive", "--rate", "0").err()).contains("--rate takes messages a second from 1 to 500");
  }

  /**
   * Runbook section 1 sets QUEUE_URL to the deployed queue; exported, it once switched ./fulfil-ops to
   * local mode against AWS's own SQS. Only the variable ./run-local --serve prints selects the local stack.
   */
  @Test
  void aQueueUrlInTheShellNeverSwitchesToTheLocalStack() throws Exception {
    OpsRun deployedQueue = new OpsRun(Map.of("QUEUE_URL", "https://sqs.eu-west-1.amazonaws.com/123456789012/orders-to-fulfil",
        "DLQ_URL", "https://sqs.eu-west-1.amazonaws.com/123456789012/orders-to-fulfil-dlq"), "dlq");
    assertThat(deployedQueue.exitCode()).isEqualTo(2);
    assertThat(deployedQueue.err()).contains("no AWS region").doesNotContain("local stack");
  }

  @Test
  void theLocalStackIsRefusedWhereAnyOfItsEndpointsIsNotALoopbackAddress() throws Exception {
    Map<String, String> pointedAtAws = new java.util.HashMap<>(env);
    pointedAtAws.put(AwsConnection.ENDPOINT_SQS, "https://sqs.eu-west-1.amazonaws.com");
    OpsRun refused = new OpsRun(pointedAtAws, "dlq");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.err()).contains(AwsConnection.ENDPOINT_SQS + " is https://sqs.eu-west-1.amazonaws.com, not a loopback address");

    Map<String, String> noEndpoint = new java.util.HashMap<>(env);
    noEndpoint.remove(AwsConnection.ENDPOINT_DYNAMODB);
    assertThat(new OpsRun(noEndpoint, "dlq").err()).contains(AwsConnection.ENDPOINT_DYNAMODB + " is not set");
  }
}
