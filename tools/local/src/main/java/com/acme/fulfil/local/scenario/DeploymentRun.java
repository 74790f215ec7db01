package com.acme.fulfil.local.scenario;

import com.acme.fulfil.contract.alarms.AlarmRules;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.alarm.AlarmOutcome;
import com.acme.fulfil.local.alarm.AlarmSample;
import com.acme.fulfil.local.alarm.AlarmWatch;
import com.acme.fulfil.local.alarm.FunctionMetricCounts;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.OrdersQueues;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueDepth;
import com.acme.fulfil.sim.Booking;
import com.acme.fulfil.sim.LatencyModel;
import com.acme.fulfil.sim.SimulatedPartner;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * One configuration's half of a run: its own partner (and so its own ledger) and its own {@link
 * LocalDeployment} on the shared AWS backend, and what the run observes of them.
 */
final class DeploymentRun implements AutoCloseable {
  static final String INITIAL_KEY = "partner-key-2026-11";
  static final String ROTATED_KEY = "partner-key-2026-12";

  private final OrdersStack stack;
  private final SqsClient sqs;
  private final SimulatedPartner partner;
  private final Observations observations = new Observations();
  private final LocalDeployment standing;
  private final Optional<DlqWatcher> dlqWatcher;
  private final Map<String, ScenarioOrder> orderByMessage = new ConcurrentHashMap<>();
  private final Map<String, Instant> sentAt = new ConcurrentHashMap<>();
  /** The stack's alarms, played on this configuration: the incident had none, but would they have paged? */
  private final AlarmWatch alarms;
  private final FunctionMetricCounts functionMetrics = new FunctionMetricCounts();
  private final TimeScale scale;
  private final TransientFailures transientFailures = new TransientFailures();
  private final PartnerOutages outages = new PartnerOutages();
  private final AtomicBoolean closed = new AtomicBoolean();
  /** On-call's redrive, on a day that ends with one; and when it had moved everything and the queue had drained. */
  private final Optional<DlqRedrive> redrive;
  private volatile Duration redriveDoneAt;
  private volatile Instant started;

  /** @param budget the stack's, in real time: the alarms' thresholds come from it */
  DeploymentRun(Deployment deployment, AwsConnection aws, OrdersStack stack, SqsClient sqs, TimeScale scale, long seed,
      TimingBudget budget) {
    this.stack = stack;
    this.scale = scale;
    this.sqs = sqs;
    this.partner = SimulatedPartner.builder()
        .apiKey(INITIAL_KEY)
        .latency(LatencyModel.incident())
        .timeScaleDivisor(scale.divisor())
        .seed(seed)
        .start();
    this.standing = new LocalDeployment(deployment, aws, stack, sqs, partner, observations, Map.of(),
        transientFailures.andThen(functionMetrics));
    this.dlqWatcher = standing.queues().deadLetter().map(dlq -> new DlqWatcher(sqs, dlq));
    this.redrive = standing.queues().deadLetter().map(dlq -> new DlqRedrive(sqs, dlq, standing.queues().source()));
    this.alarms = new AlarmWatch(AlarmRules.of(budget, deployment.capacity()), scale, deployment.hasDeadLetterQueue(),
        deployment.function() instanceof Deployment.FunctionCode.Packaged);
  }

  /** Samples what the stack's alarms read: the queues, and what the mapping and the function counted. */
  void sampleAlarms(Duration elapsed) {
    QueueDepth source = QueueDepth.of(sqs, standing.queues().source());
    // The DLQ's whole depth: the watcher hides what it reads, which on-call's DLQ would still show as visible.
    Optional<Integer> deadLetters = standing.queues().deadLetter().map(dlq -> QueueDepth.of(sqs, dlq).total());
    alarms.sample(new AlarmSample(elapsed, source.visible(), source.inFlight(), scale.toReal(oldestMessageAge()),
        deadLetters, observations.receivesTotal(), observations.deletesTotal(),
        observations.timedOut() + observations.functionErrors(), functionMetrics.totals()));
  }

  /** The stack's alarms played on what was sampled so far. */
  List<AlarmOutcome> alarmOutcomes() {
    return alarms.outcomes();
  }

  /**
   * A day that ends with a redrive ends as on-call ends it: once the partner is back and nothing is left
   * in the source queue (every order booked or on its way to the DLQ), the DLQ is redriven, as it stands.
   */
  void redriveOnceDrained(PartnerDay day, Duration elapsed) {
    if (!day.endsWithARedrive() || redrive.isEmpty()) {
      return;
    }
    boolean drained = QueueDepth.of(sqs, standing.queues().source()).total() == 0;
    if (!redrive.get().started()) {
      if (outages.over(day.outages().size()) && drained) {
        dlqWatcher.ifPresent(DlqWatcher::release);
        redrive.get().start();
      }
    } else if (redriveDoneAt == null && redrive.get().finished() && drained) {
      redriveDoneAt = elapsed;
    }
  }

  /**
   * Whether the day's redrive, if it has one, is over: the move finished, what it moved was worked off,
   * and two alarm periods have passed since, in which the DLQ alarms can clear.
   */
  boolean redriveSettled(PartnerDay day, Duration elapsed) {
    return !day.endsWithARedrive() || redrive.isEmpty()
        || redriveDoneAt != null && elapsed.minus(redriveDoneAt).compareTo(scale.toLocal(TimingBudget.ALARM_PERIOD).multipliedBy(2)) >= 0;
  }

  /**
   * How long the oldest message in the source queue has been there, as SQS's ApproximateAgeOfOldestMessage
   * sees it: of the messages neither deleted nor dead-lettered, those received fewer than three times.
   */
  private Duration oldestMessageAge() {
    Map<String, Instant> inDlq = dlqArrivals();
    Instant now = Instant.now();
    return orderByMessage.entrySet().stream()
        .filter(entry -> !observations.deleted(entry.getKey()) && !inDlq.containsKey(entry.getKey())
            && observations.receives(entry.getKey()) <= TimingBudget.RECEIVES_SQS_AGES)
        .map(entry -> Duration.between(sentAt.get(entry.getValue().orderId()), now))
        .max(Comparator.naturalOrder())
        .orElse(Duration.ZERO);
  }

  Deployment deployment() {
    return standing.deployment();
  }

  OrdersQueues queues() {
    return standing.queues();
  }

  URI partnerUrl() {
    return partner.baseUrl();
  }

  SimulatedPartner partner() {
    return partner;
  }

  /** How often the mapping has handed out the message so far. */
  int receives(String messageId) {
    return observations.receives(messageId);
  }

  String secretId() {
    return standing.secretId();
  }

  String functionName() {
    return standing.functionName();
  }

  /** The idempotency table, for a configuration whose function has one. */
  Optional<String> table() {
    return standing.table();
  }

  void start() {
    started = Instant.now();
    standing.start();
  }

  /**
   * Starts timing arrivals in the DLQ. Only for a measured run: the watcher hides what it has read, so
   * a person inspecting the DLQ with the AWS CLI would find it empty.
   */
  void watchDeadLetters() {
    dlqWatcher.ifPresent(DlqWatcher::start);
  }

  void send(ScenarioOrder order) {
    Instant now = Instant.now();
    String messageId = sqs.sendMessage(request -> request.queueUrl(standing.queues().source().url()).messageBody(order.body()))
        .messageId();
    orderByMessage.put(messageId, order);
    sentAt.put(order.orderId(), now);
  }

  /** The partner's bad day, as {@link PartnerDay} describes it. */
  void partnerEvent(PartnerDay day) {
    switch (day) {
      case HEALTHY -> { }
      case DEGRADED -> partner.degraded(PartnerDay.DEGRADED_UNAVAILABLE_SHARE, PartnerDay.WINDOW);
      case OUTAGE, BLIPS, LONG_OUTAGE -> outages.start(partner, day.outages());
      case KEY_ROTATION -> {
        stack.putPartnerKey(standing.secretId(), ROTATED_KEY);
        partner.rotateKey(ROTATED_KEY);
      }
    }
  }

  /** Every message sent so far has been deleted or dead-lettered. */
  boolean settled(int expected) {
    if (orderByMessage.size() < expected) {
      return false;
    }
    Map<String, Instant> inDlq = dlqArrivals();
    return orderByMessage.keySet().stream().allMatch(id -> observations.deleted(id) || inDlq.containsKey(id));
  }

  Progress progress() {
    Map<String, Long> bookingsPerOrder = bookingsPerOrder();
    return new Progress(orderByMessage.size(), bookingsPerOrder.size(),
        (int) bookingsPerOrder.values().stream().filter(n -> n > 1).count(),
        dlqWatcher.map(w -> w.arrivals().size()));
  }

  /** Stops polling and waits for the invocations still running, so the ledger is final. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    standing.close();
    dlqWatcher.ifPresent(watcher -> {
      watcher.close();
      watcher.sweep();
    });
    partner.close();
  }

  /** @param offeredOrdersPerHour the rate the checkout service sent at, in real-world orders an hour */
  DeploymentReport report(Optional<Duration> settledAfter, long offeredOrdersPerHour) {
    Map<String, Long> bookingsPerOrder = bookingsPerOrder();
    Map<String, Instant> inDlq = dlqArrivals();
    Map<String, Integer> dlqReasons = new LinkedHashMap<>();
    for (ScenarioOrder.Kind kind : ScenarioOrder.Kind.values()) {
      long count = inDlq.keySet().stream().filter(id -> orderByMessage.containsKey(id) && orderByMessage.get(id).kind() == kind).count();
      if (count > 0) {
        dlqReasons.put(kind.reason(), (int) count);
      }
    }
    int queued = 0;
    int lost = 0;
    List<Duration> toBooking = new ArrayList<>();
    List<Duration> partnerShares = new ArrayList<>();
    PartnerShare partnerShare = new PartnerShare(partner.latencies());
    List<Duration> toDlq = new ArrayList<>();
    List<Integer> goodReceives = new ArrayList<>();
    List<Integer> badReceives = new ArrayList<>();
    List<OutageRecovery.OrderCourse> goodCourses = new ArrayList<>();
    Map<String, Instant> firstBooking = firstBookings();
    for (Map.Entry<String, ScenarioOrder> entry : orderByMessage.entrySet()) {
      String messageId = entry.getKey();
      ScenarioOrder order = entry.getValue();
      boolean booked = bookingsPerOrder.containsKey(order.orderId());
      boolean deadLettered = inDlq.containsKey(messageId);
      boolean stillQueued = !deadLettered && !observations.deleted(messageId);
      if (stillQueued) {
        queued++;
      } else if (!booked && !deadLettered) {
        lost++;
      }
      Instant sent = sentAt.get(order.orderId());
      if (booked) {
        Instant bookedAt = firstBooking.get(order.orderId());
        toBooking.add(Duration.between(sent, bookedAt));
        partnerShares.add(partnerShare.of(order.orderId(), sent, bookedAt));
      }
      if (deadLettered && order.kind().neverBookable()) {
        toDlq.add(Duration.between(sent, inDlq.get(messageId)));
      }
      (order.kind().neverBookable() ? badReceives : goodReceives).add(observations.receives(messageId));
      if (!order.kind().neverBookable()) {
        goodCourses.add(new OutageRecovery.OrderCourse(sent, Optional.ofNullable(firstBooking.get(order.orderId())),
            observations.receives(messageId)));
      }
    }
    return new DeploymentReport(
        standing.deployment().name(),
        standing.deployment().title(),
        standing.deployment().mapping().maxConcurrency(),
        standing.deployment().mapping().batchSize(),
        orderByMessage.size(),
        (int) orderByMessage.values().stream().filter(o -> o.kind().neverBookable()).count(),
        (int) bookingsPerOrder.values().stream().filter(n -> n == 1).count(),
        (int) bookingsPerOrder.values().stream().filter(n -> n > 1).count(),
        partner.bookings().size(),
        // The orders sent: a dead letter of a message a redrive sent stands for an order counted already.
        dlqWatcher.map(w -> (int) inDlq.keySet().stream().filter(orderByMessage::containsKey).count()),
        dlqReasons,
        queued,
        QueueDepth.of(sqs, standing.queues().source()).total(),
        lost,
        receives(goodReceives),
        receives(badReceives),
        observations.staleDeletes(),
        observations.timedOut(),
        observations.functionErrors(),
        sendToBooking(toBooking, partnerShares),
        spread(toDlq),
        settledAfter,
        Duration.between(started, Instant.now()),
        standing.deployment().capacity().typicalOrdersPerHour(),
        offeredOrdersPerHour,
        alarms.mostWaiting(),
        alarms.outcomes(),
        new DeploymentReport.PartnerCalls(partner.postCount(), partner.lookupCount()),
        standing.deployment().function() instanceof Deployment.FunctionCode.Packaged
            ? Optional.of(transientFailures.byCause()) : Optional.empty(),
        OutageRecovery.of(outages.downtimes(), goodCourses));
  }

  private Map<String, Instant> dlqArrivals() {
    return dlqWatcher.map(DlqWatcher::arrivals).orElse(Map.of());
  }

  private Map<String, Long> bookingsPerOrder() {
    return partner.bookings().stream().collect(Collectors.groupingBy(Booking::orderId, Collectors.counting()));
  }

  private Map<String, Instant> firstBookings() {
    return partner.bookings().stream()
        .collect(Collectors.toMap(Booking::orderId, Booking::bookedAt, (a, b) -> a.isBefore(b) ? a : b));
  }

  static DeploymentReport.Receives receives(List<Integer> counts) {
    return new DeploymentReport.Receives(
        counts.stream().mapToInt(Integer::intValue).average().orElse(0),
        counts.stream().mapToInt(Integer::intValue).max().orElse(0));
  }

  static Optional<DeploymentReport.Spread> spread(List<Duration> durations) {
    if (durations.isEmpty()) {
      return Optional.empty();
    }
    List<Duration> sorted = durations.stream().sorted(Comparator.naturalOrder()).toList();
    return Optional.of(new DeploymentReport.Spread(percentile(sorted, 50), percentile(sorted, 95), sorted.getLast()));
  }

  /** The whole of each order's send-to-booking, the partner's share of it, and what is left. */
  static Optional<DeploymentReport.SendToBooking> sendToBooking(List<Duration> toBooking, List<Duration> partnerShares) {
    List<Duration> rest = new ArrayList<>();
    for (int i = 0; i < toBooking.size(); i++) {
      rest.add(toBooking.get(i).minus(partnerShares.get(i)));
    }
    return spread(toBooking).map(all -> new DeploymentReport.SendToBooking(all, spread(partnerShares).orElseThrow(),
        spread(rest).orElseThrow()));
  }

  /** Nearest-rank percentile. */
  private static Duration percentile(List<Duration> sorted, int percent) {
    int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }

  /** The numbers the progress line shows. */
  record Progress(int sent, int booked, int bookedTwiceOrMore, Optional<Integer> dlq) {}
}
