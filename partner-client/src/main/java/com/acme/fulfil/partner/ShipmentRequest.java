package com.acme.fulfil.partner;

import com.acme.fulfil.order.OrderMessage;
import com.acme.fulfil.order.Parcel;
import com.acme.fulfil.order.Service;
import com.acme.fulfil.order.ShipTo;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** The body of {@code POST /v1/shipments}: the order's fields the partner needs, nothing else. */
public record ShipmentRequest(@JsonProperty("order_id") String orderId, @JsonProperty("service") Service service,
    @JsonProperty("ship_to") ShipTo shipTo, @JsonProperty("parcels") List<Parcel> parcels) {

  public static ShipmentRequest of(OrderMessage order) {
    return new ShipmentRequest(order.orderId(), order.service(), order.shipTo(), order.parcels());
  }
}
