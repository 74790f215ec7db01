package com.acme.fulfil.local.aws;

import java.util.Objects;

/** A created queue as the SDK (URL) and IAM/Lambda (ARN) name it. */
public record QueueRef(String name, String url, String arn) {
  public QueueRef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(arn, "arn");
  }

  /** The region part of the ARN ({@code arn:aws:sqs:REGION:account:name}), as Lambda puts it in each record. */
  public String region() {
    return arn.split(":", 6)[3];
  }
}
