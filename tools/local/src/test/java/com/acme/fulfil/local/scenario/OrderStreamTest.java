package com.acme.fulfil.local.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class OrderStreamTest {
  private final OrderStream stream = new OrderStream();

  @Test
  void sameSeedGivesBothConfigurationsTheSameOrders() {
    assertThat(stream.generate(50, 0.1, 0.04, 3)).isEqualTo(stream.generate(50, 0.1, 0.04, 3));
  }

  @Test
  void sharesBecomeCountsOfEachKind() {
    Map<ScenarioOrder.Kind, Long> kinds = stream.generate(200, 0.02, 0.01, 42).stream()
        .collect(Collectors.groupingBy(ScenarioOrder::kind, Collectors.counting()));

    assertThat(kinds).containsEntry(ScenarioOrder.Kind.MALFORMED, 2L)
        .containsEntry(ScenarioOrder.Kind.BREAKS_CONTRACT, 2L)
        .containsEntry(ScenarioOrder.Kind.PARTNER_REJECTS, 2L)
        .containsEntry(ScenarioOrder.Kind.GOOD, 194L);
  }

  @Test
  void everyOrderHasItsOwnIdAndOnlyMalformedOnesAreNotJson() {
    List<ScenarioOrder> orders = stream.generate(100, 0.1, 0.1, 9);
    ObjectMapper json = new ObjectMapper();

    assertThat(orders.stream().map(ScenarioOrder::orderId).distinct()).hasSize(100);
    assertThat(orders).allSatisfy(order -> {
      boolean parses = parses(json, order.body());
      assertThat(parses).as(order.orderId()).isEqualTo(order.kind() != ScenarioOrder.Kind.MALFORMED);
    });
  }

  private static boolean parses(ObjectMapper json, String body) {
    try {
      return json.readTree(body).isObject();
    } catch (Exception e) {
      return false;
    }
  }
}
