package com.acme.fulfil.order;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * The delivery address, personal data: never log it. Its JSON shape is shared by the order message and the partner
 * request; {@code line2} is null when the order has no second address line.
 */
public record ShipTo(@JsonProperty("name") String name, @JsonProperty("line1") String line1,
    // The partner contract spells out "line2": null; keep it even under a NON_NULL mapper default.
    @JsonProperty("line2") @JsonInclude(JsonInclude.Include.ALWAYS) String line2,
    @JsonProperty("city") String city, @JsonProperty("postcode") String postcode,
    @JsonProperty("country") String country) {

  public ShipTo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(line1, "line1");
    Objects.requireNonNull(city, "city");
    Objects.requireNonNull(postcode, "postcode");
    Objects.requireNonNull(country, "country");
  }
}
