package com.acme.fulfil.local.esm;

import java.util.Objects;

/** The function's name and the ARN Lambda would give it, for the {@code Context} and the logs. */
public record FunctionIdentity(String name, String region) {
  public FunctionIdentity {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(region, "region");
  }

  public String arn() {
    return "arn:aws:lambda:" + region + ":000000000000:function:" + name;
  }
}
