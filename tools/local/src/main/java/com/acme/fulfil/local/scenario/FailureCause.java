package com.acme.fulfil.local.scenario;

import com.acme.fulfil.contract.records.OrderRecordLayout;

/**
 * Why a try of this project's function failed transiently, as its log line tells it: the failure's
 * exception type, and for a partner that could not be used, what the function was doing.
 */
public enum FailureCause {
  LOOKUP_FAILED("lookup failed or timed out", "lookup_failed"),
  NO_TIME_TO_BOOK("no time to book", OrderRecordLayout.NO_TIME_TO_BOOK),
  PARTNER_429("partner 429 (Retry-After)", "partner_429"),
  OUTCOME_UNKNOWN("5xx or no answer: outcome unknown", OrderRecordLayout.OUTCOME_UNKNOWN),
  HELD_BY_ANOTHER_TRY("held by another try", "held_by_another_try"),
  PARTNER_UNREACHABLE("partner unreachable", "partner_unreachable"),
  KEY_REFUSED("API key refused", "key_refused"),
  OTHER("other (AWS, secret, unexpected)", "other");

  private final String label;
  private final String key;

  FailureCause(String label, String key) {
    this.label = label;
    this.key = key;
  }

  /** The text report's words. */
  public String label() {
    return label;
  }

  /** The JSON report's key. */
  public String key() {
    return key;
  }

  /**
   * The cause of a transient failure from its reason, which the function writes as the exception's
   * simple name, its message and its first cause, or, for a try with too little time left, as the
   * record's outcome name and why. A booking request is never cut short as
   * "unavailable" (that is an unknown outcome), so an unavailable partner whose deadline passed was a
   * lookup.
   */
  static FailureCause ofTransientFailure(String reason) {
    if (reason.contains(OrderRecordLayout.NO_TIME_TO_BOOK) || reason.contains("no time left to call the partner")) {
      return NO_TIME_TO_BOOK;
    }
    if (reason.contains("PartnerOutcomeUnknownException")) {
      return OUTCOME_UNKNOWN;
    }
    if (!reason.contains("PartnerUnavailableException") || reason.contains("SecretUnavailableException")) {
      return OTHER;
    }
    if (reason.contains("(429")) {
      return PARTNER_429;
    }
    if (reason.contains("refused the API key")) {
      return KEY_REFUSED;
    }
    if (reason.contains("to a lookup") || reason.contains("a lookup with") || reason.contains("deadline passed")) {
      return LOOKUP_FAILED;
    }
    return PARTNER_UNREACHABLE;
  }
}
