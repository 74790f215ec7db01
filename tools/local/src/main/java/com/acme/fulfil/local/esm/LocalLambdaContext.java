package com.acme.fulfil.local.esm;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.nio.charset.StandardCharsets;

/**
 * The invocation's {@link Context}: the remaining time really counts down to the function timeout, so
 * a handler that budgets its partner call against it behaves as it does in Lambda.
 */
public final class LocalLambdaContext implements Context {
  /** Only reported to the handler; nothing here enforces memory. */
  private static final int MEMORY_MB = 1024;

  private final FunctionIdentity function;
  private final String requestId;
  private final long deadlineNanos;
  private final LambdaLogger logger;

  /** {@code deadlineNanos} is on the {@link System#nanoTime()} clock: start plus the function timeout. */
  public LocalLambdaContext(FunctionIdentity function, String requestId, long deadlineNanos) {
    this.function = function;
    this.requestId = requestId;
    this.deadlineNanos = deadlineNanos;
    System.Logger log = System.getLogger("lambda." + function.name());
    this.logger = new LambdaLogger() {
      @Override
      public void log(String message) {
        log.log(System.Logger.Level.INFO, message);
      }

      @Override
      public void log(byte[] message) {
        log(new String(message, StandardCharsets.UTF_8));
      }
    };
  }

  @Override
  public String getAwsRequestId() {
    return requestId;
  }

  @Override
  public String getLogGroupName() {
    return "/aws/lambda/" + function.name();
  }

  @Override
  public String getLogStreamName() {
    return "local/[$LATEST]" + requestId;
  }

  @Override
  public String getFunctionName() {
    return function.name();
  }

  @Override
  public String getFunctionVersion() {
    return "$LATEST";
  }

  @Override
  public String getInvokedFunctionArn() {
    return function.arn();
  }

  @Override
  public CognitoIdentity getIdentity() {
    return null;
  }

  @Override
  public ClientContext getClientContext() {
    return null;
  }

  @Override
  public int getRemainingTimeInMillis() {
    return (int) Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000);
  }

  @Override
  public int getMemoryLimitInMB() {
    return MEMORY_MB;
  }

  @Override
  public LambdaLogger getLogger() {
    return logger;
  }
}
