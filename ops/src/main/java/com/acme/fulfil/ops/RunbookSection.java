package com.acme.fulfil.ops;

/**
 * The docs/runbook.md sections ops' sentences send on-call to, by how their titles begin: a section's number
 * changes whenever one is added before it, its title only when what it is about does.
 * RunbookAgreesWithTheCodeTest holds each to a title of the runbook.
 */
final class RunbookSection {
  static final String BACKLOG = "A backlog";
  static final String PARTNER_OUTAGE = "Partner outage";

  private RunbookSection() {}
}
