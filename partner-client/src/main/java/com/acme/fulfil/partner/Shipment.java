package com.acme.fulfil.partner;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/** One booking the partner made: a courier and a label. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Shipment(@JsonProperty("shipment_id") String shipmentId, @JsonProperty("order_id") String orderId,
    @JsonProperty("courier") String courier, @JsonProperty("tracking_number") String trackingNumber,
    @JsonProperty("label_url") String labelUrl) {}
