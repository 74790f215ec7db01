package com.acme.fulfil.runbook;

/** The runbook's sections 1 to 9: the names, each alarm's procedure but the backlog's, the key rotation and an order shipped twice. */
class RunbookAlarmCommandsTest extends RunbookCommands {
  @Override
  boolean runs(int number) {
    return number <= 9;
  }
}
