package com.acme.fulfil.contract.records;

/**
 * The function's CloudWatch metrics, by the names it emits them under, in its namespace and with its
 * service dimension: the function writes them, the stack's alarms, the local run and the runbook read
 * them, so all of them take the names from here.
 */
public final class MetricNames {
  public static final String NAMESPACE = "FulfilOrder";
  public static final String SERVICE = "fulfil-order";

  public static final String ORDER_BOOKED = "OrderBooked";
  public static final String DUPLICATE_SUPPRESSED = "DuplicateSuppressed";
  public static final String BOOKING_ADOPTED = "BookingAdopted";
  public static final String PERMANENT_FAILURE = "PermanentFailure";
  public static final String TRANSIENT_FAILURE = "TransientFailure";
  public static final String IN_PROGRESS_ELSEWHERE = "InProgressElsewhere";
  public static final String NEAR_DLQ = "ReceiveCountNearDlq";
  /**
   * A message on its way to the DLQ, counted where it is decided: sent there by the function, or failed on
   * its last receive, after which the redrive policy moves it when it next returns. The DLQ alarm's count.
   */
  public static final String DEAD_LETTERED = "DeadLettered";
  public static final String PARTNER_LATENCY = "PartnerLatency";
  /** A booking found at the partner after the order's late-booking hold had ended: the partner booked later than its contract allows. */
  public static final String BOOKING_ADOPTED_AFTER_HOLD = "BookingAdoptedAfterHold";
  /** A record with neither a traceparent attribute nor an AWSTraceHeader: followed by its order id alone. */
  public static final String TRACE_CONTEXT_MISSING = "TraceContextMissing";
  /** A record whose trace context is not W3C's format (or X-Ray's): ignored, the order booked as usual. */
  public static final String TRACE_CONTEXT_MALFORMED = "TraceContextMalformed";

  private MetricNames() {}
}
