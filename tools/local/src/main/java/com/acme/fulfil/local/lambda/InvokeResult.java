package com.acme.fulfil.local.lambda;

import java.nio.charset.StandardCharsets;

/** What one invocation came to, as Lambda's Invoke API reports it to the caller (here, the event source mapping). */
public sealed interface InvokeResult {

  /** The handler returned; {@code payload} is what the runtime serialized. */
  record Response(byte[] payload) implements InvokeResult {
    public String text() {
      return new String(payload, StandardCharsets.UTF_8);
    }
  }

  /**
   * The invocation failed: the handler threw (the runtime's {@code errorType}, usually the exception's
   * class), or Lambda's own kinds: {@code Sandbox.Timedout}, {@code Runtime.ExitError}, an init error.
   */
  record Failure(String errorType, String errorMessage) implements InvokeResult {}
}
