package com.acme.fulfil.local.lambda;

/**
 * A Java managed runtime of Lambda's, as far as it decides how an environment's JVM starts. AWS
 * documents ("Customize Java runtime startup behavior"): {@code java17} and {@code java21} stop tiered
 * compilation at C1 in every environment; from {@code java25} on, an environment initialised for
 * SnapStart (or provisioned concurrency) keeps the JVM's defaults, C1 then C2, because its compilation
 * happens while the snapshot is made and not on an invocation; an on-demand one still stops at C1.
 */
public enum JavaRuntime {
  JAVA_21("java21", false),
  /** What the stack deploys (infra FulfilOrderFunction). */
  JAVA_25("java25", true);

  private final String id;
  private final boolean fullJitWithSnapStart;

  JavaRuntime(String id, boolean fullJitWithSnapStart) {
    this.id = id;
    this.fullJitWithSnapStart = fullJitWithSnapStart;
  }

  /** Lambda's name for it, as in a function's {@code Runtime}. */
  public String id() {
    return id;
  }

  boolean stopsJitAtC1(boolean snapStart) {
    return !(snapStart && fullJitWithSnapStart);
  }

  String executionEnvironment() {
    return "AWS_Lambda_" + id;
  }
}
