package com.acme.fulfil.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.local.aws.AwsBackend;
import com.acme.fulfil.partner.PartnerAnswerGenerators;
import com.acme.fulfil.sim.Reaction;
import com.acme.fulfil.system.backend.OnSelectedBackend;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.Figures;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.Orders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PartnerContractFuzzTest's generator through the packaged function, on the emulated queue and table:
 * a few orders whose first booking request and whose lookups get generated answers, each one the
 * contract allows beside the partner's ledger (a lookup's list holds the order's real bookings, plus
 * foreign, duplicate or unreadable entries; a booking answer that says nothing was booked books
 * nothing). Judged by the partner's ledger: at most one booking per order, whatever came back. Outside
 * a property jqwik draws unseeded samples, so a failure names every generated answer instead.
 */
@OnSelectedBackend
class PartnerContractFuzzSystemTest {
  private static final int ORDERS = 8;

  @AutoClose
  private static FulfilOrderUnderTest fulfil;

  @BeforeAll
  static void deploy(AwsBackend backend) {
    fulfil = FulfilOrderUnderTest.on(backend, "partner-fuzz").start();
  }

  @Test
  void generatedAnswersNeverBookAnOrderTwice() {
    List<Reaction.Fault> lookups = new ArrayList<>();
    for (int i = 0; i < 2 * ORDERS; i++) {
      lookups.add(lookupAnswers().sample());
    }
    lookups.forEach(lookup -> fulfil.partner().script().nextLookups(1, lookup));
    Map<String, String> messageByOrder = new LinkedHashMap<>();
    Map<String, Reaction> firstBookingAnswer = new LinkedHashMap<>();
    for (int i = 0; i < ORDERS; i++) {
      String orderId = Orders.newId("ORD-FUZZ");
      Reaction answer = bookingAnswers().sample();
      firstBookingAnswer.put(orderId, answer);
      fulfil.partner().script().forOrder(orderId, 1, answer);
      messageByOrder.put(orderId, fulfil.send(Orders.body(orderId)));
    }

    // Two visibility timeouts: an order a lookup holds back (an entry that may be its booking) retries
    // until its receives run out, and the verdict, never two bookings, does not wait on it.
    Duration receives = fulfil.queues().settings().visibilityTimeout().multipliedBy(2);
    boolean settled = Await.until(receives, () -> messageByOrder.values().stream()
        .allMatch(id -> fulfil.invocations().deleted(id) || fulfil.deadLetters().messages().containsKey(id)));

    SoftAssertions softly = new SoftAssertions();
    messageByOrder.keySet().forEach(orderId -> softly.assertThat(fulfil.partner().bookingsFor(orderId))
        .as("%s: the partner's bookings after a first booking answered %s and lookups answered %s", orderId,
            firstBookingAnswer.get(orderId), lookups).hasSizeLessThanOrEqualTo(1));
    softly.assertAll();
    long booked = messageByOrder.keySet().stream().filter(id -> fulfil.partner().bookingsFor(id).size() == 1).count();
    Figures.print("partner contract fuzzed through the function: %d orders, %d generated lookup answers, %d generated booking answers;"
        + " %d booked once, none twice, settled: %s", ORDERS, lookups.size(), ORDERS, booked, settled);
  }

  /** A lookup's answer the contract allows beside the ledger: the real list with extras, or one that lists nothing. */
  private static Arbitrary<Reaction.Fault> lookupAnswers() {
    Arbitrary<Reaction.Fault> listing = Arbitraries.oneOf(PartnerAnswerGenerators.extras().map(e -> e.json()).list().ofMaxSize(3)
        .flatMap(extras -> Arbitraries.of(true, false).map(duplicates -> new Reaction.Listing(extras, duplicates))));
    Arbitrary<Reaction.Fault> proving = Arbitraries.oneOf(
        PartnerAnswerGenerators.statuses().filter(status -> status >= 200 && status != 200)
            .flatMap(status -> PartnerAnswerGenerators.broken().map(body -> new Reaction.Answer(status, body))),
        PartnerAnswerGenerators.broken().map(body -> new Reaction.Answer(200, body)),
        Arbitraries.just(Reaction.drop()));
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(2, listing), net.jqwik.api.Tuple.of(1, proving));
  }

  /**
   * A first booking request's answer: the partner's verdicts and refusals book nothing; any other answer
   * may come with a booking or without one, as a gateway's may.
   */
  private static Arbitrary<Reaction> bookingAnswers() {
    Arbitrary<Reaction> nothingBooked = Arbitraries.oneOf(
        PartnerAnswerGenerators.partnersErrors().flatMap(body -> Arbitraries.of(400, 422).map(status -> (Reaction) new Reaction.Answer(status, body))),
        Arbitraries.just((Reaction) new Reaction.Answer(429, "{\"error\":\"rate_limited\"}")));
    Arbitrary<Reaction.Fault> unknown = Arbitraries.oneOf(
        PartnerAnswerGenerators.statuses().filter(status -> status >= 200 && !List.of(400, 401, 422, 429).contains(status))
            .flatMap(status -> Arbitraries.oneOf(PartnerAnswerGenerators.broken(), PartnerAnswerGenerators.partnersErrors())
                .map(body -> new Reaction.Answer(status, body))),
        Arbitraries.just(Reaction.drop()));
    Arbitrary<Reaction> maybeBooked = unknown.flatMap(answer -> Arbitraries.of(true, false)
        .map(books -> books ? Reaction.lateBooking(answer, Duration.ZERO) : answer));
    return Arbitraries.oneOf(nothingBooked, maybeBooked, Arbitraries.just(Reaction.bookThenDrop()));
  }
}
