package com.acme.fulfil.runbook;

/** The runbook's sections 1 to 9: the names, and the procedure for each alarm, a key rotation and a timing change. */
class RunbookAlarmCommandsTest extends RunbookCommands {
  @Override
  boolean runs(int number) {
    return number <= 9;
  }
}
