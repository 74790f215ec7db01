package com.acme.fulfil.partner;

import com.acme.fulfil.order.OrderMessage;
import com.acme.fulfil.order.Parcel;
import com.acme.fulfil.order.Service;
import com.acme.fulfil.order.ShipTo;
import java.time.Instant;
import java.util.List;

/** The valid order the partner tests book: one parcel to an invented London address. */
public final class TestOrder {
  private TestOrder() {}

  public static OrderMessage of(String orderId) {
    return new OrderMessage(orderId, Instant.parse("2026-11-20T14:03:11Z"), Service.STANDARD,
        new ShipTo("A Person", "1 A Street", null, "London", "SW1Y 4JH", "GB"), List.of(new Parcel(1200)));
  }

  /** Its booking request, as the function sends it. */
  public static ShipmentRequest booking(String orderId) {
    return ShipmentRequest.of(of(orderId));
  }
}
