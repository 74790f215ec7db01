package com.acme.fulfil.contract.oncall;

/**
 * Words on-call searches the function's log lines for, which a page's text and the runbook quote: written once,
 * so that the line the function writes and the words that send on-call looking for it cannot drift apart.
 */
public final class OnCallPhrases {
  /** Ends the line of a try whose partner refused the key the secret holds, on a lookup or a booking. */
  public static final String ROTATE_THE_SECRET = "rotate the secret";

  private OnCallPhrases() {}
}
