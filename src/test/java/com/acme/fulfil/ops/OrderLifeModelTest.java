package com.acme.fulfil.ops;

import static com.acme.fulfil.booking.ModelWorld.CONTRACT_MAXIMUM;
import static com.acme.fulfil.booking.ModelWorld.FUNCTION;
import static com.acme.fulfil.booking.ModelWorld.FUNCTION_TIMEOUT;
import static com.acme.fulfil.booking.ModelWorld.HOLD;
import static com.acme.fulfil.booking.ModelWorld.JSON;
import static com.acme.fulfil.booking.ModelWorld.MAX_RECEIVES;
import static com.acme.fulfil.booking.ModelWorld.RECORD_LIFETIME;
import static com.acme.fulfil.booking.ModelWorld.TABLE;
import static com.acme.fulfil.booking.ModelWorld.VISIBILITY;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.records.OrderRecordLayout;
import com.acme.fulfil.contract.timing.RetrySchedule;
import com.acme.fulfil.booking.Booking;
import com.acme.fulfil.booking.CallWindow;
import com.acme.fulfil.booking.Chooser;
import com.acme.fulfil.booking.Interleaving;
import com.acme.fulfil.booking.ModelParts;
import com.acme.fulfil.booking.ModelWorld;
import com.acme.fulfil.booking.OnceOnlyBooking;
import com.acme.fulfil.booking.OrderRecords;
import com.acme.fulfil.fulfilment.OrderFulfilment;
import com.acme.fulfil.fulfilment.ReceivedMessage;
import com.acme.fulfil.fulfilment.RecordOutcome;
import com.acme.fulfil.observability.FulfilmentMetrics;
import com.acme.fulfil.order.OrderParser;
import com.acme.fulfil.partner.ScriptedPartner;
import com.acme.fulfil.partner.Shipment;
import com.acme.fulfil.queue.AcknowledgementPolicy;
import com.acme.fulfil.queue.DeadLetters;
import com.acme.fulfil.queue.RetryWaits;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.MessageAttribute;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;
import software.amazon.lambda.powertools.metrics.MetricsBuilder;

/**
 * One order's whole life, model-checked by seeded random walks, where {@code BookingProtocolModelTest}
 * stops at the edge of one delivery window. The real {@link OrderFulfilment}, {@link OrderRecords} on
 * the DynamoDB emulator and the function's {@link DeadLetters} meet a {@link ScriptedPartner} answering
 * anything its contract allows, and on-call acts on what {@code ./fulfil-ops dlq} would tell them
 * ({@link DeadLetterVerdict}). Over a life, in any order the walk picks:
 * <ul>
 *   <li>deliveries, one message or up to three at once (SQS's duplicate, another copy), each step of each
 *       try interleaved with the world: time passes (a request takes its time to reach the partner, a
 *       lock runs out, an invocation reaches its timeout and Lambda kills it), a try is killed (as
 *       often as the walk likes), a late booking lands (never later than the contract's maximum after
 *       the partner can last have received its request), the order's record vanishes;</li>
 *   <li>DynamoDB throttling a call, or applying it and losing the answer;</li>
 *   <li>SQS's redrive policy moving a message whose receives ran out, labels and all;</li>
 *   <li>the producer sending the order again, days later;</li>
 *   <li>time passing by hours, days, or past the record's TTL;</li>
 *   <li>on-call dropping what the tools say to drop and redriving the rest, or, the cause fixed,
 *       redriving everything (a new message id, a new life, receive count 1, the old attributes
 *       carried).</li>
 * </ul>
 * Then the partner and DynamoDB heal and the queues run dry, on-call still following the tools.
 *
 * <p>Invariants: at most one booking per order; every message is deleted with the order's one booking
 * or dropped by on-call; an order with no booking was rejected for good in the life of a message
 * on-call dropped; and no dead letter tells on-call to drop an order that could still be booked.
 *
 * <p>How many lives is the system property {@code fulfil.order-life.lives}: every build lives the first
 * 150 of one seed's, enough for every part of a life above to happen; CI's nightly run lives thousands,
 * where the rare coincidences of those parts are.
 */
class OrderLifeModelTest {
  private static final Duration DLQ_RETENTION = Duration.ofDays(14);
  /** As the stack derives it, in the model's time: backoffs from 500 ms doubling to the visibility timeout. */
  private static final RetrySchedule RETRY_SCHEDULE = new RetrySchedule(Duration.ofMillis(500), VISIBILITY, 20,
      HOLD.minus(CONTRACT_MAXIMUM));
  private static final int LIFE_EVENTS = 16;
  private static final int LIVES = Integer.getInteger("fulfil.order-life.lives", 150);
  private static final long SEED = 20261125L;
  private static final String DLQ_URL = "https://sqs.eu-west-1.amazonaws.com/123456789012/orders-to-fulfil-dlq";
  private static final String SOURCE_ARN = "arn:aws:sqs:eu-west-1:123456789012:orders-to-fulfil";

  @AutoClose
  private static ModelWorld world;

  @BeforeAll
  static void start() {
    world = ModelWorld.start();
  }

  @Test
  void noLifeOfRedeliveriesRedrivesResendsExpiriesAndOnCallsActionsBooksAnOrderTwiceOrLosesIt() throws Exception {
    Map<String, Integer> endings = new TreeMap<>();
    Map<String, Integer> seen = new TreeMap<>();
    long started = System.nanoTime();
    for (int run = 0; run < LIVES; run++) {
      Life life = new Life(new Chooser.AtRandom(SEED + run), run);
      endings.merge(life.play(), 1, Integer::sum);
      life.seen.forEach(what -> seen.merge(what, 1, Integer::sum));
    }
    System.out.printf("[figures] order-life model (seed %d): %,d lives in %.0f s; endings %s; lives that saw %s%n", SEED, LIVES,
        (System.nanoTime() - started) / 1e9, endings, seen);
    assertThat(endings).as("endings; lives that saw " + seen).containsKeys("booked once", "rejected, nothing booked");
    assertThat(seen).as("the walks reached every part of an order's life")
        .containsKeys("a redrive", "a drop", "a producer's copy", "the record vanished", "a try killed",
            "Lambda's timeout", "a late booking landed", "DynamoDB throttled", "a lost DynamoDB answer",
            "the receives ran out", "the record expired", "a wait the try chose");
  }

  /** One life of one order. */
  private static final class Life {
    private final Chooser choices;
    private final String orderId;
    private final ModelParts.SettableClock clock = new ModelParts.SettableClock(Instant.parse("2026-11-25T03:00:00Z"));
    private final List<String> trace = Collections.synchronizedList(new ArrayList<>());
    private final List<String> seen = Collections.synchronizedList(new ArrayList<>());
    private final ScriptedPartner partner;
    private final OrderFulfilment fulfilment;
    private final DeadLetters deadLetters;
    private final String body;
    private final List<Queued> queue = new ArrayList<>();
    private final List<DeadLetterInQueue> dlq = new ArrayList<>();
    private final List<Queued> deleted = new ArrayList<>();
    private final List<DeadLetterInQueue> dropped = new ArrayList<>();
    private final List<String> wrongDrops = new ArrayList<>();
    private final List<String> earlyRetries = Collections.synchronizedList(new ArrayList<>());
    private final AcknowledgementPolicy acknowledgements;
    /** The order's holder as the record named it when this thread's try claimed: what the try could know. */
    private final ThreadLocal<String> holderSeenAtClaim = new ThreadLocal<>();
    private final boolean dynamoDbFlaky;
    private volatile boolean healed;
    private volatile Interleaving race;
    private volatile Instant raceEnd;
    /** What this thread's try sent to the DLQ, and the id SQS gave it. */
    private final ThreadLocal<SendMessageRequest> deadLetterSent = new ThreadLocal<>();
    private final ThreadLocal<String> deadLetterId = new ThreadLocal<>();
    private int vanishesLeft;
    private int copiesLeft;
    private int nextMessage = 1;
    private final java.util.concurrent.atomic.AtomicInteger nextDeadLetter = new java.util.concurrent.atomic.AtomicInteger(1);

    Life(Chooser choices, int number) {
      this.choices = choices;
      this.orderId = "ORD-life-" + number + "-" + System.nanoTime();
      this.body = """
          {"order_id":"%s","placed_at":"2026-11-25T02:59:00Z","service":"standard",
           "ship_to":{"name":"Model Customer","line1":"1 Model Street","line2":null,"city":"London",
                      "postcode":"SW1A 1AA","country":"GB"},
           "parcels":[{"weight_grams":1000}]}""".formatted(orderId);
      this.dynamoDbFlaky = choices.choose(2) == 1;
      this.copiesLeft = choices.choose(3);
      this.vanishesLeft = choices.choose(3);
      this.partner = new ScriptedPartner(new ScriptedPartner.Script() {
        @Override
        public int choose(String what, List<String> options) {
          int chosen = choices.choose(options.size());
          trace.add(what + ": " + options.get(chosen));
          return chosen;
        }

        @Override
        public void gate(String step) {
          Life.this.gate(step);
        }

        @Override
        public Instant now() {
          return clock.instant();
        }
      }, CONTRACT_MAXIMUM, EnumSet.allOf(ScriptedPartner.LookupAnswer.class));
      OrderRecords records = new OrderRecords(flakyDynamoDb(), TABLE, FUNCTION, HOLD, RECORD_LIFETIME, JSON, clock);
      FulfilmentMetrics metrics = new FulfilmentMetrics(MetricsBuilder.builder().withNamespace("Model").withService("model").build());
      this.fulfilment = new OrderFulfilment(new OrderParser(JSON), new OnceOnlyBooking(records, partner, metrics), metrics,
          MAX_RECEIVES);
      this.deadLetters = new DeadLetters(this::capturingSqs, Optional.of(DLQ_URL), records, clock);
      this.acknowledgements = new AcknowledgementPolicy(
          new RetryWaits(RETRY_SCHEDULE, clock, new SplittableRandom(SEED + number)), metrics, MAX_RECEIVES, clock);
    }

    private void gate(String step) {
      Interleaving now = race;
      if (now != null) {
        now.gate(step);
      }
    }

    /** The emulated DynamoDB behind the model's gates: a call may be throttled, or applied with its answer lost. */
    private DynamoDbClient flakyDynamoDb() {
      return (DynamoDbClient) Proxy.newProxyInstance(DynamoDbClient.class.getClassLoader(),
          new Class<?>[] {DynamoDbClient.class}, (proxy, method, args) -> {
            gate("DynamoDB " + method.getName());
            int fault = dynamoDbFlaky && !healed ? choices.choose(6) : 5;
            if (fault == 0) {
              seen.add("DynamoDB throttled");
              trace.add("DynamoDB throttles " + method.getName());
              throw ProvisionedThroughputExceededException.builder().message("throttled by the model").build();
            }
            Object answer;
            try {
              answer = method.invoke(world.dynamoDb(), args);
            } catch (InvocationTargetException e) {
              if (method.getName().equals("updateItem") && claims(args)) {
                holderSeenAtClaim.set(holderNow());
              }
              throw e.getCause();
            }
            if (method.getName().equals("updateItem") && claims(args)) {
              holderSeenAtClaim.set(holderNow());
            }
            if (fault == 1) {
              seen.add("a lost DynamoDB answer");
              trace.add("DynamoDB applied " + method.getName() + " and the answer was lost");
              throw SdkClientException.create("the model lost DynamoDB's answer");
            }
            return answer;
          });
    }

    /** A claim: OrderRecords' conditional update that takes an order from nobody, or from an expired lock. */
    @SuppressWarnings("unchecked")
    private static boolean claims(Object[] args) {
      if (args == null || args.length != 1 || !(args[0] instanceof Consumer<?> build)) {
        return false;
      }
      software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest.Builder request =
          software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest.builder();
      ((Consumer<software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest.Builder>) build).accept(request);
      String condition = request.build().conditionExpression();
      return condition != null && condition.startsWith("attribute_not_exists(#id)");
    }

    /** Who holds the order now, by the record (ground truth, not through the flaky proxy); null if nobody. */
    private String holderNow() {
      Map<String, AttributeValue> item = world.dynamoDb().getItem(r -> r.tableName(TABLE).consistentRead(true).key(key())).item();
      if (item == null || !item.containsKey(OrderRecordLayout.HOLDER)) {
        return null;
      }
      return item.get(OrderRecordLayout.HOLDER).s();
    }

    /** SQS as the function's DeadLetters sees it: the one call it makes, captured. */
    @SuppressWarnings("unchecked")
    private SqsClient capturingSqs() {
      return (SqsClient) Proxy.newProxyInstance(SqsClient.class.getClassLoader(), new Class<?>[] {SqsClient.class},
          (proxy, method, args) -> {
            if (!method.getName().equals("sendMessage") || !(args[0] instanceof Consumer<?> build)) {
              throw new UnsupportedOperationException("the model's SQS only takes sendMessage(Consumer), not " + method);
            }
            SendMessageRequest.Builder request = SendMessageRequest.builder();
            ((Consumer<SendMessageRequest.Builder>) build).accept(request);
            deadLetterSent.set(request.build());
            deadLetterId.set("dlq-" + nextDeadLetter.getAndIncrement());
            return SendMessageResponse.builder().messageId(deadLetterId.get()).build();
          });
    }

    String play() throws InterruptedException {
      send("the producer sends the order");
      for (int event = 0; event < LIFE_EVENTS; event++) {
        List<Runnable> possible = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        if (!queue.isEmpty()) {
          // The mapping polls all the time: deliveries are what happens most.
          for (int weight = 0; weight < 3; weight++) {
            labels.add("deliveries");
            possible.add(this::deliveries);
          }
        }
        labels.add("time passes");
        possible.add(this::timePasses);
        if (copiesLeft > 0) {
          labels.add("the producer sends the order again");
          possible.add(() -> {
            copiesLeft--;
            seen.add("a producer's copy");
            send("the producer sends the order again");
          });
        }
        if (!dlq.isEmpty()) {
          labels.add("on-call acts on the DLQ");
          possible.add(this::onCallActs);
        }
        if (vanishesLeft > 0) {
          labels.add("the record vanishes");
          possible.add(this::recordVanishes);
        }
        int chosen = choices.choose(possible.size());
        trace.add("-- " + labels.get(chosen));
        possible.get(chosen).run();
      }
      return settle();
    }

    /** The partner and DynamoDB heal; SQS goes on delivering and on-call goes on following the tools. */
    private String settle() {
      healed = true;
      partner.heal();
      trace.add("-- the partner and DynamoDB heal; the queues run dry");
      for (int round = 0; round < 60 && !(queue.isEmpty() && dlq.isEmpty()); round++) {
        Optional<Queued> next = queue.stream().filter(this::visible).findFirst();
        if (next.isPresent()) {
          deliver(new Delivery("settling " + next.get().id, next.get(), clock.instant().plus(FUNCTION_TIMEOUT)));
        } else if (!queue.isEmpty()) {
          advance(Duration.between(clock.instant(), queue.stream().map(q -> q.visibleAt).min(Instant::compareTo).orElseThrow()));
        } else {
          onCallActs();
        }
      }
      partner.landLateBookings();
      return judge();
    }

    private void send(String why) {
      queue.add(new Queued("m" + nextMessage++, body, Map.of(), clock.instant()));
      trace.add(why);
    }

    private boolean visible(Queued message) {
      return !message.visibleAt.isAfter(clock.instant());
    }

    /** One message, or two at once, delivered to invocations whose steps interleave with the world's. */
    private void deliveries() {
      // Nothing visible yet: the next delivery is when the first hold runs out.
      advance(Duration.between(clock.instant(), queue.stream().map(q -> q.visibleAt).min(Instant::compareTo).orElseThrow()));
      List<Queued> visible = queue.stream().filter(this::visible).toList();
      Queued first = visible.get(choices.choose(visible.size()));
      List<Delivery> together = new ArrayList<>();
      Instant end = clock.instant().plus(FUNCTION_TIMEOUT);
      together.add(new Delivery("A", first, end));
      // Up to two more at once: SQS's duplicate of the same message, or another copy of the order.
      for (String name : List.of("B", "C")) {
        int more = choices.choose(visible.size() + 1);
        if (more == visible.size()) {
          break;
        }
        together.add(new Delivery(name, visible.get(more), end));
      }
      together.forEach(d -> trace.add(d.name + " receives " + d.message.id));
      Map<String, Instant> ends = new HashMap<>();
      together.forEach(d -> ends.put(d.name, d.invocationEnd));
      raceEnd = end;
      // Mostly steps, now and then the world or a kill, so that walks get somewhere.
      race = new Interleaving(choices, trace, choices.choose(3), this::worldMoves,
          name -> !clock.instant().isBefore(ends.get(name)), 8);
      try {
        race.run(together, Delivery::name, this::deliver);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } finally {
        race = null;
        raceEnd = null;
      }
      if (trace.stream().anyMatch(line -> line.startsWith("kill "))) {
        seen.add("a try killed");
      }
      if (trace.stream().anyMatch(line -> line.startsWith("Lambda kills"))) {
        seen.add("Lambda's timeout");
      }
    }

    /** What the world may do while tries wait at their gates. */
    private List<Interleaving.Move> worldMoves() {
      List<Interleaving.Move> moves = new ArrayList<>();
      // Never past the invocations' timeout: Lambda kills them there, not later.
      moves.add(new Interleaving.Move("time passes: 300 ms", () -> advanceWithinTheRace(Duration.ofMillis(300))));
      moves.add(new Interleaving.Move("time passes: the late-booking hold", () -> advanceWithinTheRace(HOLD)));
      if (partner.hasLateBooking()) {
        moves.add(new Interleaving.Move("a late booking lands", () -> {
          seen.add("a late booking landed");
          partner.landLateBookings();
        }));
      }
      if (vanishesLeft > 0) {
        moves.add(new Interleaving.Move("the order's record vanishes", this::recordVanishes));
      }
      return moves;
    }

    private void recordVanishes() {
      vanishesLeft--;
      seen.add("the record vanished");
      trace.add("the order's record vanishes");
      world.dynamoDb().deleteItem(r -> r.tableName(TABLE).key(key()));
    }

    /** Time passes between deliveries: the queue's own pace, or hours and days with nothing in flight. */
    private void timePasses() {
      List<Duration> steps = new ArrayList<>(List.of(VISIBILITY, Duration.ofHours(1)));
      if (queue.isEmpty()) {
        steps.add(Duration.ofDays(5));
        if (dlq.isEmpty()) {
          steps.add(RECORD_LIFETIME.plusDays(1));
        }
      }
      Duration step = steps.get(choices.choose(steps.size()));
      if (step.compareTo(Duration.ofHours(1)) >= 0 && queue.stream().anyMatch(q -> true)) {
        // SQS and the mapping do not wait: what is in the queue is delivered meanwhile.
        step = VISIBILITY;
      }
      trace.add("time passes: " + step);
      advance(step);
      if (step.compareTo(RECORD_LIFETIME) > 0) {
        seen.add("the record expired");
      }
    }

    private void advanceWithinTheRace(Duration step) {
      Duration toTheTimeout = Duration.between(clock.instant(), raceEnd);
      advance(step.compareTo(toTheTimeout) < 0 ? step : toTheTimeout);
    }

    private void advance(Duration step) {
      if (step.isNegative() || step.isZero()) {
        return;
      }
      clock.advance(step);
      partner.landLateBookingsDueBy(clock.instant());
    }

    /** One delivery of a message to an invocation: what it answers decides what SQS does with the message. */
    private void deliver(Delivery delivery) {
      Queued message = delivery.message;
      SQSMessage record;
      synchronized (this) {
        if (!queue.contains(message)) {
          return;
        }
        if (message.receives >= MAX_RECEIVES) {
          // SQS's redrive policy: the message moves as it is, labels and first enqueue time kept.
          seen.add("the receives ran out");
          trace.add(message.id + " moves to the DLQ: its receives ran out");
          queue.remove(message);
          dlq.add(new DeadLetterInQueue(message.id, message.body, sqsAttributes(message.attributes), message.sentAt, false));
          return;
        }
        if (message.returnedEarlyAfter != null) {
          // The invariant of the new waits: a message a try returned early is not handed out while the try
          // that returned it, or the try it found holding the order, may still book.
          Set<String> mayStillBook = partner.triesThatMayStillBook();
          mayStillBook.retainAll(message.returnedEarlyAfter);
          if (!mayStillBook.isEmpty()) {
            earlyRetries.add(message.id + " received at " + clock.instant() + " while " + mayStillBook + " may still book");
          }
          message.returnedEarlyAfter = null;
        }
        message.receives++;
        message.visibleAt = clock.instant().plus(VISIBILITY);
        record = new SQSMessage();
        record.setMessageId(message.id);
        record.setBody(message.body);
        record.setAttributes(Map.of("ApproximateReceiveCount", Integer.toString(message.receives),
            "SentTimestamp", Long.toString(message.sentAt.toEpochMilli())));
        record.setMessageAttributes(message.attributes);
      }
      CallWindow window = new CallWindow(clock,
          () -> Math.max(0, Duration.between(clock.instant(), delivery.invocationEnd).toMillis()),
          Duration.ofMillis(200), Duration.ofMillis(1_000), Duration.ofMillis(200));
      holderSeenAtClaim.remove();
      ReceivedMessage received = ReceivedMessage.of(record);
      RecordOutcome outcome = fulfilment.fulfil(received, window);
      AcknowledgementPolicy.Decision decision = acknowledgements.decide(received, outcome);
      boolean sentToTheDlq = decision instanceof AcknowledgementPolicy.DeadLetterNow now
          && deadLetters.send(received, now.rejected());
      if (decision instanceof AcknowledgementPolicy.DeadLetterNow) {
        decision = acknowledgements.afterDeadLetter(received, sentToTheDlq);
      }
      if (decision instanceof AcknowledgementPolicy.Return back) {
        // As the function does before it answers: the message's visibility from what the try knew. A try
        // killed before this line, by Lambda or a crash, gets no say and keeps the queue's timeout.
        Optional<Duration> wait = back instanceof AcknowledgementPolicy.ReturnAfter after
            ? Optional.of(after.after()) : Optional.empty();
        if (wait.isPresent()) {
          seen.add("a wait the try chose");
          synchronized (this) {
            message.visibleAt = clock.instant().plus(wait.get());
            Set<String> known = new java.util.HashSet<>();
            Optional.ofNullable(holderSeenAtClaim.get()).ifPresent(known::add);
            message.returnedEarlyAfter = known;
          }
          trace.add(delivery.name + " sets " + message.id + " to return in " + wait.get());
        }
      }
      // The invocation answers the mapping last: a kill before this leaves the message in the queue.
      gate("answer the mapping");
      trace.add(delivery.name + " -> " + outcome);
      synchronized (this) {
        if (!queue.contains(message)) {
          return;
        }
        if (outcome instanceof RecordOutcome.Done done) {
          message.doneWith = done.booking();
          queue.remove(message);
          deleted.add(message);
        } else if (sentToTheDlq) {
          SendMessageRequest sent = deadLetterSent.get();
          queue.remove(message);
          dlq.add(new DeadLetterInQueue(deadLetterId.get(), sent.messageBody(), sent.messageAttributes(),
              clock.instant(), true));
        }
      }
    }

    /**
     * On-call runs the DLQ procedure: {@code dlq}, then drops what it says to drop and redrives the
     * rest (StartMessageMoveTask: each message a new one in the source queue, its attributes kept).
     */
    private void onCallActs() {
      Optional<OrderRecord> record = readRecord();
      if (!healed && choices.choose(3) == 0) {
        // The cause was fixed (the address corrected with the customer, the partner's validation
        // repaired): redrive --go --include-droppable sends everything round again, labels and all.
        trace.add("on-call fixed the cause and redrives everything, droppable included");
        redriveAll();
        return;
      }
      for (DeadLetterInQueue letter : List.copyOf(dlq)) {
        DeadLetterVerdict entry = DeadLetterVerdict.of(DeadLetter.read(letter.asSqsMessage(), DLQ_RETENTION), record);
        if (entry.drop()) {
          seen.add("a drop");
          trace.add("on-call drops " + letter.id + ": " + entry.why());
          if (!letter.rejectedInThisLife && partner.bookings().isEmpty()) {
            wrongDrops.add(letter.id + " (" + entry.why() + ")");
          }
          dlq.remove(letter);
          dropped.add(letter);
        }
      }
      redriveAll();
    }

    private void redriveAll() {
      for (DeadLetterInQueue letter : List.copyOf(dlq)) {
        seen.add("a redrive");
        trace.add("on-call redrives " + letter.id);
        dlq.remove(letter);
        queue.add(new Queued("m" + nextMessage++, letter.body, lambdaAttributes(letter.attributes), clock.instant()));
      }
    }

    private Optional<OrderRecord> readRecord() {
      Map<String, AttributeValue> item = world.dynamoDb().getItem(r -> r.tableName(TABLE).consistentRead(true).key(key())).item();
      return item == null || item.isEmpty() ? Optional.empty()
          : Optional.of(OrderRecord.of(OrderRecordLayout.keyOf(FUNCTION, orderId), item));
    }

    private Map<String, AttributeValue> key() {
      return Map.of(OrderRecordLayout.KEY, AttributeValue.fromS(OrderRecordLayout.keyOf(FUNCTION, orderId)));
    }

    private String judge() {
      List<Shipment> bookings = partner.bookings();
      String where = "\n" + String.join("\n", trace);
      assertThat(bookings).as("bookings of the order" + where).hasSizeLessThanOrEqualTo(1);
      assertThat(wrongDrops).as("dead letters on-call was told to drop while the order could still be booked" + where)
          .isEmpty();
      assertThat(earlyRetries).as("messages returned early while a try of the order may still book" + where).isEmpty();
      assertThat(queue).as("messages still in the source queue after it ran dry" + where).isEmpty();
      assertThat(dlq).as("messages still in the DLQ after on-call acted" + where).isEmpty();
      for (Queued message : deleted) {
        assertThat(bookings).as("message " + message.id + " deleted with a booking the partner made" + where)
            .extracting(Shipment::shipmentId).containsExactly(message.doneWith.shipmentId());
      }
      if (bookings.isEmpty()) {
        assertThat(dropped).as("an order with no booking was rejected for good, not lost" + where)
            .anyMatch(letter -> letter.rejectedInThisLife);
        return "rejected, nothing booked";
      }
      return "booked once";
    }
  }

  private record Delivery(String name, Queued message, Instant invocationEnd) {}

  /** A message in orders-to-fulfil: its attributes as Lambda hands them over, its receives and its hold. */
  private static final class Queued {
    final String id;
    final String body;
    final Map<String, MessageAttribute> attributes;
    final Instant sentAt;
    int receives;
    Instant visibleAt;
    Booking doneWith;
    /** The tries that may have been booking when a try set this message's return; null if none did. */
    Set<String> returnedEarlyAfter;

    Queued(String id, String body, Map<String, MessageAttribute> attributes, Instant sentAt) {
      this.id = id;
      this.body = body;
      this.attributes = attributes;
      this.sentAt = sentAt;
      this.visibleAt = sentAt;
    }

    @Override
    public String toString() {
      return id + " (receives " + receives + ")";
    }
  }

  /**
   * A message in the DLQ.
   *
   * @param rejectedInThisLife the function sent it there for a reason found in this message's own life;
   *     false when the redrive policy moved it because its receives ran out
   */
  private record DeadLetterInQueue(String id, String body, Map<String, MessageAttributeValue> attributes, Instant sentAt,
      boolean rejectedInThisLife) {
    /** As SQS hands it to a reader: a message the redrive policy moved names the queue it came from. */
    Message asSqsMessage() {
      Map<MessageSystemAttributeName, String> system = new HashMap<>();
      system.put(MessageSystemAttributeName.SENT_TIMESTAMP, Long.toString(sentAt.toEpochMilli()));
      if (!rejectedInThisLife) {
        system.put(MessageSystemAttributeName.DEAD_LETTER_QUEUE_SOURCE_ARN, SOURCE_ARN);
      }
      return Message.builder().messageId(id).body(body).messageAttributes(attributes).attributes(system).build();
    }
  }

  private static Map<String, MessageAttributeValue> sqsAttributes(Map<String, MessageAttribute> lambda) {
    Map<String, MessageAttributeValue> sqs = new HashMap<>();
    lambda.forEach((name, value) -> sqs.put(name, MessageAttributeValue.builder().dataType(value.getDataType())
        .stringValue(value.getStringValue()).build()));
    return sqs;
  }

  private static Map<String, MessageAttribute> lambdaAttributes(Map<String, MessageAttributeValue> sqs) {
    Map<String, MessageAttribute> lambda = new HashMap<>();
    sqs.forEach((name, value) -> {
      MessageAttribute attribute = new MessageAttribute();
      attribute.setDataType(value.dataType());
      attribute.setStringValue(value.stringValue());
      lambda.put(name, attribute);
    });
    return lambda;
  }
}
