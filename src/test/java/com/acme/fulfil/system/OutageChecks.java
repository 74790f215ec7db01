package com.acme.fulfil.system;

import com.acme.fulfil.sim.Booking;
import com.acme.fulfil.system.harness.Await;
import com.acme.fulfil.system.harness.FulfilOrderUnderTest;
import com.acme.fulfil.system.harness.IdempotencyRecords;
import com.acme.fulfil.system.harness.Orders;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;

/** What the failure classes ask of a deployment through a failure and after it: each order booked once, none lost. */
record OutageChecks(FulfilOrderUnderTest fulfil) {

  /**
   * Until every message has had a try that ran to its end in the failure being tested and said so (its
   * batch item failure). A try Lambda killed at its timeout, as a cold environment on a loaded machine
   * can be, met nothing; its message comes back after the visibility timeout, which the wait allows for.
   */
  void awaitFirstTries(List<String> messageIds) {
    Await.until(fulfil.queues().settings().visibilityTimeout().multipliedBy(3), () -> messageIds.stream().allMatch(id ->
        fulfil.invocations().reportedFailures(id) > 0 || fulfil.invocations().deleted(id))
        && fulfil.invocations().running() == 0);
  }

  static List<String> newOrders(String prefix, int count) {
    List<String> orderIds = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      orderIds.add(Orders.newId(prefix));
    }
    return orderIds;
  }

  List<Booking> bookingsOf(List<String> orderIds) {
    return fulfil.partner().bookings().stream().filter(booking -> orderIds.contains(booking.orderId())).toList();
  }

  /** Every order one booking, each booking recorded under its order, every message deleted, none in the DLQ. */
  void assertEachBookedOnceAndNothingDeadLettered(List<String> orderIds, List<String> messageIds) {
    Map<String, String> recorded = fulfil.records().all().stream()
        .filter(IdempotencyRecords.Record::completed)
        .collect(Collectors.toMap(r -> r.orderId().orElseThrow(), r -> r.shipmentId().orElseThrow()));
    SoftAssertions softly = new SoftAssertions();
    for (String orderId : orderIds) {
      List<Booking> bookings = fulfil.partner().bookingsFor(orderId);
      softly.assertThat(bookings).as(orderId + ": bookings").hasSize(1);
      if (bookings.size() == 1) {
        softly.assertThat(recorded.get(orderId)).as(orderId + ": recorded booking").isEqualTo(bookings.getFirst().shipmentId());
      }
    }
    softly.assertThat(fulfil.invocations().deletedAll(messageIds)).as("every message deleted").isTrue();
    softly.assertThat(fulfil.deadLetters().messages().keySet()).as("in the DLQ").doesNotContainAnyElementsOf(messageIds);
    softly.assertAll();
  }
}
