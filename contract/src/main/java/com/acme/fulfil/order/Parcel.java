package com.acme.fulfil.order;

import com.fasterxml.jackson.annotation.JsonProperty;

/** One box to collect; its JSON shape is shared by the order message and the partner request. */
public record Parcel(@JsonProperty("weight_grams") int weightGrams) {}
