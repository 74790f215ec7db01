package com.acme.fulfil.contract.oncall;

/**
 * The docs/runbook.md sections the stack's pages and ./fulfil-ops send on-call to, by how their titles begin: a
 * section's number changes whenever one is added before it, its title only when what it is about does.
 * RunbookAgreesWithTheCodeTest holds each to a title of the runbook.
 */
public final class RunbookSections {
  public static final String DLQ_ALARMS = "The DLQ alarms";
  public static final String MESSAGES_SITTING = "Messages sitting";
  public static final String IN_FLIGHT = "In flight near the cap";
  public static final String FUNCTION_ERRORS = "Function errors";
  public static final String THROTTLES = "Throttles";
  public static final String PARTNER_OUTAGE = "Partner outage";
  public static final String KEY_ROTATION = "Partner API key rotation";
  public static final String BACKLOG = "A backlog";
  public static final String BOOKED_AFTER_HOLD = "A booking after its hold";
  public static final String REHEARSALS = "Appendix: rehearse each page";

  private RunbookSections() {}

  /** How a sentence sends on-call to a section. */
  public static String see(String title) {
    return "docs/runbook.md, \"" + title + "\"";
  }
}
