package com.acme.fulfil.runbook;

/** The runbook's sections 10 on, after its names: deploy and roll back, the drill, logs, metrics, the DLQ by hand and the rest. */
class RunbookProcedureCommandsTest extends RunbookCommands {
  @Override
  boolean runs(int number) {
    return number >= 10;
  }
}
