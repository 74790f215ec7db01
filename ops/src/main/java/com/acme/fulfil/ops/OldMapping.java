package com.acme.fulfil.ops;

import java.time.Duration;
import java.time.Instant;

/**
 * An event source mapping the old setup left on orders-to-fulfil, as Lambda describes it.
 *
 * @param lastModified Lambda: "the date that the event source mapping was last updated or that its state
 *     changed"; for a Disabled mapping, when it stopped handing out messages
 * @param functionTimeout the timeout of the function it invokes: how long a try it started may still run
 */
record OldMapping(String uuid, String functionArn, String state, Instant lastModified, Duration functionTimeout) {
  static final String DISABLED = "Disabled";

  boolean disabled() {
    return DISABLED.equals(state);
  }

  /** The function's ARN without a version or alias, as {@code delete-function} takes it. */
  String unqualifiedFunctionArn() {
    String[] parts = functionArn.split(":");
    // arn:aws:lambda:REGION:ACCOUNT:function:NAME[:QUALIFIER]
    return parts.length > 7 ? String.join(":", java.util.Arrays.copyOf(parts, 7)) : functionArn;
  }
}
