package com.acme.fulfil.local.aws;

/**
 * An AWS that the function, the local event source mapping and the scenarios can talk to through the
 * real SDK. The embedded stack is one; a LocalStack container or a real account is another small
 * class that returns its connection. Everything built on top ({@link OrdersStack}, the mapping) uses
 * only the connection, so it runs unchanged on each.
 */
public interface AwsBackend extends AutoCloseable {

  AwsConnection connection();

  /** A short name for reports and logs ("embedded", "localstack"). */
  String name();

  @Override
  void close();
}
