package com.acme.fulfil.sim;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Everything the partner did, for assertions and reports: the bookings (append only, never
 * deduplicated), the requests it received and the numbers about them.
 *
 * <p>One monitor guards it all, and every change wakes the waiters, so a test can wait for "two
 * bookings for this order" without polling.
 */
final class PartnerLedger {

  private final List<Booking> bookings = new ArrayList<>();
  private final List<PartnerRequest> requests = new ArrayList<>();
  private final List<PartnerLatency> latencies = new ArrayList<>();
  private int unauthorized;
  private int postsInFlight;
  private int peakPostsInFlight;
  private long shipmentSequence;

  synchronized Booking book(ShipmentRequest request, Instant at) {
    long sequence = ++shipmentSequence;
    String shipmentId = "SHP-%08d".formatted(sequence);
    boolean express = "express".equals(request.service());
    Booking booking = new Booking(
        shipmentId,
        request.orderId(),
        express ? "DPD" : "Evri",
        (express ? "DPD" : "EV") + "%012d".formatted(sequence),
        URI.create("https://labels.partner.example/v1/labels/" + shipmentId + ".pdf"),
        at);
    bookings.add(booking);
    notifyAll();
    return booking;
  }

  synchronized void received(PartnerRequest request) {
    requests.add(request);
    notifyAll();
  }

  synchronized void waited(PartnerLatency latency) {
    latencies.add(latency);
  }

  synchronized void unauthorized() {
    unauthorized++;
    notifyAll();
  }

  synchronized void postStarted() {
    postsInFlight++;
    peakPostsInFlight = Math.max(peakPostsInFlight, postsInFlight);
    notifyAll();
  }

  synchronized void postFinished() {
    postsInFlight--;
    notifyAll();
  }

  synchronized List<Booking> bookings() {
    return List.copyOf(bookings);
  }

  synchronized List<Booking> bookingsFor(String orderId) {
    return bookings.stream().filter(booking -> booking.orderId().equals(orderId)).toList();
  }

  synchronized List<PartnerRequest> requests() {
    return List.copyOf(requests);
  }

  synchronized List<PartnerLatency> latencies() {
    return List.copyOf(latencies);
  }

  synchronized int count(String method) {
    return (int) requests.stream().filter(request -> request.method().equals(method)).count();
  }

  synchronized int count(String method, String orderId) {
    return (int) requests.stream()
        .filter(request -> request.method().equals(method) && request.orderId().equals(Optional.of(orderId))).count();
  }

  synchronized int unauthorizedCount() {
    return unauthorized;
  }

  synchronized int postsInFlight() {
    return postsInFlight;
  }

  synchronized int peakPostsInFlight() {
    return peakPostsInFlight;
  }

  /** Waits until {@code condition} (read under this ledger's lock) holds or {@code timeout} passes. */
  synchronized void await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (leftMillis <= 0) {
        return;
      }
      wait(leftMillis);
    }
  }

  /** Forgets everything except the shipment sequence, so ids stay unique for the server's life. */
  synchronized void clear() {
    bookings.clear();
    requests.clear();
    latencies.clear();
    unauthorized = 0;
    peakPostsInFlight = postsInFlight;
    notifyAll();
  }
}
