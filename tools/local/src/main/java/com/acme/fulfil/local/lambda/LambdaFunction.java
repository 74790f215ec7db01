package com.acme.fulfil.local.lambda;

/** A function as its event source mapping sees it: Lambda's JSON event in, the Invoke API's answer out. */
public interface LambdaFunction extends AutoCloseable {
  InvokeResult invoke(byte[] event);

  /** Stops whatever runs the function (its execution environments). */
  @Override
  void close();
}
