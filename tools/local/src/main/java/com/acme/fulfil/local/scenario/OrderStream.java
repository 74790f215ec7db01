package com.acme.fulfil.local.scenario;

import com.acme.fulfil.order.OrderMessage;
import com.acme.fulfil.order.Parcel;
import com.acme.fulfil.order.Service;
import com.acme.fulfil.order.ShipTo;
import com.acme.fulfil.sim.SimulatedPartner;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The checkout service's orders for one run: mostly good ones, a share of poison messages (half not
 * JSON at all, half valid JSON that breaks the order contract) and a few whose address the partner
 * rejects. The same seed gives the same stream, so both configurations see exactly the same orders.
 * Names and addresses are invented placeholders: nothing personal, even in a local run.
 */
public final class OrderStream {
  private static final String[] CITIES = {"London", "Leeds", "Bristol", "Glasgow", "Cardiff", "York"};
  private static final Instant PLACED_FROM = Instant.parse("2026-11-20T09:00:00Z");

  private final ObjectMapper json = new ObjectMapper();

  public List<ScenarioOrder> generate(int count, double poisonShare, double rejectedShare, long seed) {
    return generate("ORD-LOCAL-", count, poisonShare, rejectedShare, seed);
  }

  /** Orders numbered from 1 after {@code idPrefix}. */
  public List<ScenarioOrder> generate(String idPrefix, int count, double poisonShare, double rejectedShare, long seed) {
    Random random = new Random(seed);
    int poison = (int) Math.round(count * poisonShare);
    int rejected = (int) Math.round(count * rejectedShare);
    if (poison + rejected > count) {
      throw new IllegalArgumentException("the poison and partner-rejected shares add up to more than all " + count + " orders");
    }
    List<ScenarioOrder.Kind> kinds = new ArrayList<>();
    for (int i = 0; i < poison; i++) {
      kinds.add(i % 2 == 0 ? ScenarioOrder.Kind.MALFORMED : ScenarioOrder.Kind.BREAKS_CONTRACT);
    }
    for (int i = 0; i < rejected; i++) {
      kinds.add(ScenarioOrder.Kind.PARTNER_REJECTS);
    }
    while (kinds.size() < count) {
      kinds.add(ScenarioOrder.Kind.GOOD);
    }
    Collections.shuffle(kinds, random);
    List<ScenarioOrder> orders = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String orderId = String.format("%s%06d", idPrefix, i + 1);
      orders.add(new ScenarioOrder(orderId, body(orderId, i, kinds.get(i), random), kinds.get(i)));
    }
    return List.copyOf(orders);
  }

  private String body(String orderId, int index, ScenarioOrder.Kind kind, Random random) {
    if (kind == ScenarioOrder.Kind.MALFORMED) {
      return "order_id=" + orderId + "&service=standard"; // a producer bug: form encoding, not JSON
    }
    Service service = random.nextInt(5) == 0 ? Service.EXPRESS : Service.STANDARD;
    String line1 = (random.nextInt(200) + 1) + " Example Street";
    String city = CITIES[random.nextInt(CITIES.length)];
    String postcode = "AB" + (random.nextInt(9) + 1) + " " + (random.nextInt(9) + 1) + "CD";
    String country = kind == ScenarioOrder.Kind.PARTNER_REJECTS ? SimulatedPartner.UNSUPPORTED_COUNTRY : "GB";
    List<Parcel> parcels = new ArrayList<>();
    int parcelCount = 1 + random.nextInt(3);
    for (int p = 0; p < parcelCount; p++) {
      parcels.add(new Parcel(100 + random.nextInt(20_000)));
    }
    if (kind == ScenarioOrder.Kind.BREAKS_CONTRACT) {
      parcels.clear(); // no parcels: the contract wants 1 to 50
    }
    ShipTo shipTo = new ShipTo("Customer " + (index + 1), line1, null, city, postcode, country);
    try {
      return json.writeValueAsString(
          new OrderMessage(orderId, PLACED_FROM.plusSeconds(index * 7L), service, shipTo, parcels));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write an order message", e);
    }
  }
}
