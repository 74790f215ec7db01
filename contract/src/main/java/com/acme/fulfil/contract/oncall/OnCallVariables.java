package com.acme.fulfil.contract.oncall;

import com.acme.fulfil.contract.timing.TimingBudgetText;

/**
 * The shell variables the runbook's commands use. {@code ./run-local --serve} exports them for the stack it runs, and
 * {@code ./fulfil-ops} reads them there; on AWS it reads the stack's outputs instead.
 */
public final class OnCallVariables {
  /** {@code local} selects the local stack: only the export lines of {@code ./run-local --serve} set it. */
  public static final String STACK = "FULFIL_OPS_STACK";
  public static final String QUEUE_URL = "QUEUE_URL";
  public static final String DLQ_URL = "DLQ_URL";
  public static final String SOURCE_QUEUE_ARN = "SOURCE_QUEUE_ARN";
  public static final String DLQ_ARN = "DLQ_ARN";
  public static final String TABLE_NAME = "TABLE_NAME";
  public static final String SECRET_ARN = "SECRET_ARN";
  public static final String PARTNER_BASE_URL = "PARTNER_BASE_URL";
  public static final String FUNCTION_NAME = "FUNCTION_NAME";
  /** What the local stack was created from, as {@link TimingBudgetText} writes it. */
  public static final String TIMING_BUDGET = "TIMING_BUDGET";
  /** The local mapping's maximum concurrency, which {@code ./fulfil-ops capacity} models the stack with. */
  public static final String MAX_CONCURRENCY = "MAPPING_MAX_CONCURRENCY";

  private OnCallVariables() {}
}
