package com.acme.fulfil.queue;

/**
 * Text SQS takes as a String message attribute value: only the characters it documents (#x9, #xA, #xD,
 * #x20-#xD7FF, #xE000-#xFFFD, #x10000-#x10FFFF; any other, a lone surrogate too, becomes U+FFFD) and
 * at most a bounded length, so that a label made from the partner's words can always be sent.
 */
final class SendableText {
  private static final int REPLACEMENT = 0xFFFD;
  private static final String CUT = "…";

  private SendableText() {}

  /** {@code text} in SQS's characters, cut to {@code limit} characters (the cut marked with an ellipsis). */
  static String of(String text, int limit) {
    StringBuilder sendable = new StringBuilder(Math.min(text.length(), limit));
    text.codePoints().forEach(c -> sendable.appendCodePoint(allowed(c) ? c : REPLACEMENT));
    if (sendable.length() <= limit) {
      return sendable.toString();
    }
    int end = limit - CUT.length();
    // Never between the two halves of a pair: a lone surrogate is not sendable either.
    if (Character.isHighSurrogate(sendable.charAt(end - 1))) {
      end--;
    }
    return sendable.substring(0, end) + CUT;
  }

  private static boolean allowed(int c) {
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)
        || (c >= 0x10000 && c <= 0x10FFFF);
  }
}
