package com.acme.fulfil.contract.records;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The order's record in the function's DynamoDB table: its key and attribute names. The function
 * writes it; on-call's tools and the tests read it (docs/runbook.md). The key and the first five
 * attributes are the layout Powertools' idempotency used, so records written before the function
 * kept its own are read and honoured as they are.
 */
public final class OrderRecordLayout {
  /** Partition key: {@link #keyOf}. */
  public static final String KEY = "id";
  /** When DynamoDB's TTL may delete the record, epoch seconds. */
  public static final String EXPIRY = "expiration";
  /** {@code INPROGRESS} while a try holds or held the order, {@code COMPLETED} once it is booked. */
  public static final String STATUS = "status";
  /** Until when the try that holds the order keeps it, epoch milliseconds. */
  public static final String LOCK_EXPIRY = "in_progress_expiration";
  /**
   * The try that holds the order (its attempt id, which starts each X-Request-Id it sends the partner): a claim is
   * this try's only while this is its id, whatever happened to the record in between.
   */
  public static final String HOLDER = "held_by";
  /** The booking, as JSON (order id, shipment id, tracking number, courier, label URL, how it was got). */
  public static final String BOOKING = "data";
  /** How many tries have claimed the order. */
  public static final String TRIES = "tries";
  /** When the last try claimed the order, ISO-8601 UTC. */
  public static final String LAST_TRY_AT = "last_try_at";
  /** What the last try came to: {@link #CLAIMED} while it runs (or if it died), else its outcome. */
  public static final String LAST_OUTCOME = "last_outcome";
  /** Why the last try failed, as the function logged it; absent after a success. */
  public static final String LAST_REASON = "last_reason";
  /** When a try last sent the partner a booking request, ISO-8601 UTC. */
  public static final String LAST_POST_AT = "last_post_at";
  /**
   * The DLQ message the function sent the order's message to when the last try's outcome was the
   * partner's rejection: {@code fulfil-ops dlq} drops that message, and only that one, on this word.
   */
  public static final String DEAD_LETTER = "dead_letter_message_id";
  /**
   * When a try that had found the order unbooked at the partner ended with no booking request of ours that may
   * still be carried out (none sent, or the partner's answer proved it booked nothing), ISO-8601 UTC; removed as a
   * booking request leaves. A booking a later try finds while it is there is one the partner made later than its
   * contract allows.
   */
  public static final String NOTHING_BOOKED_AT = "nothing_booked_at";
  /**
   * The source queue's message the partner rejected and the function could not send to the DLQ: it returned at once,
   * and its next receive goes to the DLQ again without asking the partner (whose verdict on the same request stands).
   */
  public static final String REJECTED_MESSAGE = "rejected_message_id";

  public static final String IN_PROGRESS = "INPROGRESS";
  public static final String COMPLETED = "COMPLETED";

  /** The last try's outcome while it runs; still there later means it died (killed at its timeout). */
  public static final String CLAIMED = "claimed";
  /** The last try's outcome when the partner refused the order as sent (400, 422 with the contract's codes). */
  public static final String PARTNER_REJECTED = "partner_rejected";
  /**
   * The last try's outcome when its booking request may have reached the partner and no answer proved what came of
   * it: the order stays held for the late-booking hold, and the next try looks it up first.
   */
  public static final String OUTCOME_UNKNOWN = "outcome_unknown";
  /** The last try's outcome when the partner's lookup listed an entry that may be the order's booking and cannot be read. */
  public static final String BOOKING_UNREADABLE = "booking_unreadable";
  /** The last try's outcome when too little of its invocation was left to call the partner: nothing was sent. */
  public static final String NO_TIME_TO_BOOK = "no_time_to_book";
  /** The last try's outcome when another try took the order over before this one could send its booking request. */
  public static final String LOST_THE_CLAIM = "lost_the_claim";
  /** The last try's outcome when its claim's answer was lost and it freed the claim it may have won. */
  public static final String CLAIM_UNCONFIRMED = "claim_unconfirmed";
  /** The last try's outcome when it failed otherwise (AWS, the secret, the partner unavailable, our own bug). */
  public static final String FAILED = "failed";

  private OrderRecordLayout() {}

  /**
   * The record's key for an order: one pure function of the function's name and the order id
   * ({@code <function>.book#<md5 hex of the order id>}), whatever else runs in the process.
   */
  public static String keyOf(String functionName, String orderId) {
    try {
      byte[] md5 = MessageDigest.getInstance("MD5").digest(orderId.getBytes(StandardCharsets.UTF_8));
      return functionName + ".book#" + HexFormat.of().formatHex(md5);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has MD5", e);
    }
  }
}
