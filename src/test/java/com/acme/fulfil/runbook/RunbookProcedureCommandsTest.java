package com.acme.fulfil.runbook;

/** The runbook's sections 10 on, after its names: deploy, a record deleted or restored, a timing change, the DLQ by hand, roll back and the backlog. */
class RunbookProcedureCommandsTest extends RunbookCommands {
  @Override
  boolean runs(int number) {
    return number >= 10;
  }
}
