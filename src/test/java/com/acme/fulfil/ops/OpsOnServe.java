package com.acme.fulfil.ops;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.system.harness.TestBudgets;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

/** {@code ./fulfil-ops} on one running local deployment, with the variables {@code ./run-local --serve} prints for it. */
record OpsOnServe(Map<String, String> env) {
  /**
   * The deployment the ops classes run: the stack's default timing at 1/150 as far as the queues and retries go (12 s
   * visibility, retries from 33 ms doubling to 12 s for at least 60 s: 14 receives); the function gets {@link
   * TestBudgets#quick()}'s partner numbers inside the same 2 s timeout, since the defaults at that scale leave a try
   * 33 ms to spare.
   */
  static final TimingBudget BUDGET = budget().build();
  private static final ObjectMapper JSON = new ObjectMapper();

  /** {@link #BUDGET}'s numbers, for a class that changes one of them. */
  static TimingBudget.Builder budget() {
    return TestBudgets.quickBuilder(Duration.ofSeconds(1))
        .firstBackoff(TimingBudget.defaults().retrySchedule().firstBackoff().dividedBy(150));
  }

  OpsRun run(String... args) throws InterruptedException {
    return new OpsRun(env, args);
  }

  JsonNode json(String... args) throws Exception {
    List<String> withJson = new ArrayList<>(List.of(args));
    withJson.add("--json");
    return JSON.readTree(run(withJson.toArray(String[]::new)).out());
  }

  /** The order's dead letter, as {@code dlq} lists it. */
  JsonNode letterFor(String orderId) throws Exception {
    return StreamSupport.stream(json("dlq").path("dead_letters").spliterator(), false)
        .filter(letter -> orderId.equals(letter.path("order_id").asText())).findFirst().orElseThrow();
  }
}
