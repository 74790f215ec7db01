package com.acme.fulfil.contract.settings;

/** The names a deploy gives what it creates, by which on-call's command finds them. */
public final class DeployedNames {
  /** The CloudFormation stack: {@code cdk deploy} creates it, {@code ./fulfil-ops} reads its outputs by default. */
  public static final String STACK = "fulfil-order";
  /** The Lambda function, whose log group {@code ./fulfil-ops} reads. */
  public static final String FUNCTION = "fulfil-order";

  private DeployedNames() {}
}
