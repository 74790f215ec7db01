package com.acme.fulfil.partner;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.partner.PartnerAnswerGenerators.FuzzedAnswer;
import com.acme.fulfil.partner.PartnerAnswerGenerators.GeneratedAnswer;
import com.acme.fulfil.partner.WirePartner.WireAnswer;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntFunction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * {@link PartnerAnswerGenerators}' answers as raw bytes, their HTTP/1.1 framing kept or mangled: a
 * status line no client may read, a header line with no colon, with control characters or of a few
 * hundred KiB, a Content-Length that is negative, no number, given twice or longer or shorter than the
 * body, chunked encoding whole or broken, an answer at and over the contract's 1 MiB. Each framing says
 * what it leaves of the answer it carries ({@link Effect}), so what the client may make of a raw answer
 * follows from how it was made, never from the client. The partner closes the connection after every
 * raw answer, and says so: a framing that promises more than it sends ends there, and no byte one
 * leaves over reaches the client's next request.
 *
 * <p>Not generated: a chunk with more bytes than its size before its line end. OkHttp skips the
 * surplus, below anything the client can check, so the chunk reads as its first bytes only
 * (docs/partner-api.md).
 */
final class RawAnswerGenerators {
  /** docs/partner-api.md: an answer over 1 MiB is none the client can read. */
  private static final int MAX_ANSWER_BYTES = 1 << 20;

  private RawAnswerGenerators() {}

  /** What a framing leaves of the answer it carries. */
  enum Effect {
    /** The answer arrives as generated: the client makes of it exactly what the answer means. */
    INTACT,
    /**
     * Bytes an HTTP client must refuse (RFC 9112: a status line that is none, a Content-Length that is no
     * one number, a body short of its length, broken chunking) or an answer over 1 MiB: nothing is read
     * from it, no shipment, no list, and least of all a proof that nothing was booked.
     */
    VOID,
    /**
     * A defect OkHttp reads past (a header line with no colon or with control characters, the {@code ICY}
     * protocol token of old streaming servers) or refuses (a header over its 256 KiB): the client may read
     * the answer or fail, but never makes more of it than the answer means.
     */
    LENIENT
  }

  /** The call an answer answers, and what the client must make of an answer nothing can be read from. */
  enum Call {
    /** A lookup books nothing: a transient failure, with nothing to prove. */
    LOOKUP(PartnerUnavailableException.class),
    /** The booking request went out: its outcome is unknown. */
    BOOKING(PartnerOutcomeUnknownException.class);

    private final Class<? extends PartnerException> unreadable;

    Call(Class<? extends PartnerException> unreadable) {
      this.unreadable = unreadable;
    }
  }

  static Arbitrary<RawAnswer> lookups() {
    return framed(Call.LOOKUP, PartnerAnswerGenerators.lookupAnswers());
  }

  static Arbitrary<RawAnswer> bookings() {
    return framed(Call.BOOKING, PartnerAnswerGenerators.bookingAnswers());
  }

  private static Arbitrary<RawAnswer> framed(Call call, Arbitrary<GeneratedAnswer> answers) {
    // Final answers, whole: a 1xx and an answer cut at any byte are GeneratedAnswer's own manglings.
    Arbitrary<GeneratedAnswer> whole = answers.filter(answer -> answer.cut().isEmpty() && answer.status() >= 200);
    return Combinators.combine(whole, framings()).as((answer, framing) -> new RawAnswer(call, answer, framing));
  }

  /** Every framing; the mangled ones more often, the 1 MiB ones seldom (each try of one moves 1-2 MiB). */
  static Arbitrary<Framing> framings() {
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(new Framing("Content-Length", Effect.INTACT, Message::lengthFramed))),
        Tuple.of(3, chunkings().map(chunking -> new Framing("chunked " + chunking, Effect.INTACT,
            message -> message.chunked(chunking.encode(message.body()))))),
        Tuple.of(2, bytesBeyondTheLength()),
        Tuple.of(1, Arbitraries.just(new Framing("padded with spaces to 1 MiB exactly", Effect.INTACT,
            message -> message.paddedTo(MAX_ANSWER_BYTES).lengthFramed()))),
        Tuple.of(6, badStatusLines()),
        Tuple.of(4, badContentLengths()),
        Tuple.of(3, brokenChunking()),
        Tuple.of(1, overTheLimit()),
        Tuple.of(4, oddHeaderLines()),
        Tuple.of(1, Arbitraries.just(new Framing("status line ICY <code>", Effect.LENIENT,
            message -> message.withStatusLine("ICY " + message.status() + " Fuzzed").lengthFramed()))));
  }

  /** A Content-Length short of the bytes sent: the answer is its first Content-Length bytes, the rest no part of it. */
  private static Arbitrary<Framing> bytesBeyondTheLength() {
    return Arbitraries.of("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n", "{\"shipments\":[]}", "\r\n", "\u0000garbage")
        .map(beyond -> new Framing("Content-Length, then " + printable(beyond) + " beyond it", Effect.INTACT,
            message -> message.framed(List.of("Content-Length: " + message.body().length), message.body(), beyond.getBytes(UTF_8))));
  }

  private static Arbitrary<Framing> badStatusLines() {
    Arbitrary<Framing> negative = Arbitraries.integers().between(1, 99)
        .map(n -> statusLine("HTTP/1.1 -" + n, status -> "HTTP/1.1 -" + n + " Fuzzed"));
    Arbitrary<Framing> letterForADigit = Combinators.combine(Arbitraries.integers().between(0, 2), Arbitraries.of('O', 'o', 'l', 'I', 'S'))
        .as((at, letter) -> statusLine("the code with " + letter + " for its digit " + at, status -> {
          StringBuilder code = new StringBuilder(String.valueOf(status));
          code.setCharAt(at, letter);
          return "HTTP/1.1 " + code + " Fuzzed";
        }));
    Arbitrary<Framing> twoDigits = Arbitraries.just(statusLine("a code of two digits", status -> "HTTP/1.1 " + status / 10 + " Fuzzed"));
    Arbitrary<Framing> fourDigits = Arbitraries.integers().between(0, 9)
        .map(digit -> statusLine("a code of four digits", status -> "HTTP/1.1 " + status + digit + " Fuzzed"));
    Arbitrary<Framing> protocol = Arbitraries.of("HTTP/1.2", "HTTP/2", "HTTP/2.0", "http/1.1", "HTTPS/1.1", "HTTP/11", " HTTP/1.1")
        .map(token -> statusLine("protocol " + printable(token), status -> token + " " + status + " Fuzzed"));
    Arbitrary<Framing> empty = Arbitraries.just(statusLine("an empty line", status -> ""));
    return Arbitraries.oneOf(negative, letterForADigit, twoDigits, fourDigits, protocol, empty);
  }

  private static Framing statusLine(String what, IntFunction<String> line) {
    return new Framing("status line: " + what, Effect.VOID, message -> message.withStatusLine(line.apply(message.status())).lengthFramed());
  }

  /** Content-Length negative, no number (OkHttp reads such a body to the connection's end), given twice, or past the body's end. */
  private static Arbitrary<Framing> badContentLengths() {
    Arbitrary<Framing> negative = Arbitraries.integers().between(1, 1000)
        .map(n -> contentLengths("-" + n, message -> List.of("-" + n)));
    Arbitrary<Framing> noNumber = Arbitraries.of("", "five", "12abc", "0x1F", "1e3", "+1", "99999999999999999999")
        .map(length -> contentLengths(printable(length), message -> List.of(length)));
    Arbitrary<Framing> twoThatDisagree = Combinators.combine(Arbitraries.integers().between(1, 64), Arbitraries.of(true, false))
        .as((more, longerFirst) -> contentLengths("twice, " + more + " bytes apart", message -> {
          String length = String.valueOf(message.body().length);
          String longer = String.valueOf(message.body().length + more);
          return longerFirst ? List.of(longer, length) : List.of(length, longer);
        }));
    Arbitrary<Framing> pastTheBody = Arbitraries.integers().between(1, 64)
        .map(more -> contentLengths(more + " bytes past the body", message -> List.of(String.valueOf(message.body().length + more))));
    return Arbitraries.oneOf(negative, noNumber, twoThatDisagree, pastTheBody);
  }

  private static Framing contentLengths(String what, Function<Message, List<String>> lengths) {
    return new Framing("Content-Length " + what, Effect.VOID,
        message -> message.framed(lengths.apply(message).stream().map(length -> "Content-Length: " + length).toList(), message.body()));
  }

  /** A chunk size that is no hex number (or too large for one), or the chunks cut before the last one ended. */
  private static Arbitrary<Framing> brokenChunking() {
    Arbitrary<Framing> badSize = Combinators.combine(chunkings(), Arbitraries.of("zz", "-1", "", " 1", "0x1", "1 junk", "fffffffffffffffff"))
        .as((chunking, size) -> new Framing("chunked, its first size " + printable(size), Effect.VOID, message -> {
          byte[] chunks = chunking.encode(message.body());
          int firstLineEnd = new String(chunks, ISO_8859_1).indexOf("\r\n");
          return message.chunked(concat(size.getBytes(US_ASCII), Arrays.copyOfRange(chunks, firstLineEnd, chunks.length)));
        }));
    Arbitrary<Framing> cut = Combinators.combine(chunkings(), Arbitraries.doubles().between(0, 0.999).ofScale(3))
        .as((chunking, at) -> new Framing("chunked, cut at " + (int) (at * 100) + "% (no last chunk)", Effect.VOID, message -> {
          byte[] chunks = chunking.encode(message.body());
          return message.chunked(Arrays.copyOf(chunks, (int) (at * chunks.length)));
        }));
    return Arbitraries.oneOf(badSize, cut);
  }

  /** Valid JSON, padded with spaces past the client's 1 MiB by a byte or to 2 MiB: if it were read, it would mean what it meant. */
  private static Arbitrary<Framing> overTheLimit() {
    return Combinators.combine(Arbitraries.of(MAX_ANSWER_BYTES + 1, 2 * MAX_ANSWER_BYTES), Arbitraries.of(true, false))
        .as((size, chunked) -> new Framing("padded with spaces to " + size + " bytes, " + (chunked ? "chunked" : "Content-Length"),
            Effect.VOID, message -> {
              Message padded = message.paddedTo(size);
              return chunked ? padded.chunked(new Chunking(List.of(), false, false, false).encode(padded.body())) : padded.lengthFramed();
            }));
  }

  /** One more header line, before the framing's: malformed, with control characters or bytes that are no UTF-8, or very long. */
  private static Arbitrary<Framing> oddHeaderLines() {
    Arbitrary<String> odd = Arbitraries.of("X-Fuzz without a colon", "Retry-After 0", ": no name", " folded onto the line before",
        "\tfolded with a tab", "X-Fuzz: a\u0000b", "X-Fu\u0001zz: v", "X-Fuzz: \u0007\u001b[31m\u007f", "X-Fuzz: a\rb", "X-Fuzz: a\nb",
        "X-Fuzz: ends the head early\n\r\nX-After: 1", "X-Fuzz: caf\u00e9 in Latin-1", "Retry-After: 99999999999999999999",
        "Retry-After: -5", "Retry-After: \u0001", "Retry-After: Thu, 31 Feb 2026 25:61:00 GMT");
    Arbitrary<String> veryLong = Arbitraries.of(16 << 10, 300 << 10).map(size -> "X-Fuzz: " + "a".repeat(size));
    return Combinators.combine(Arbitraries.frequencyOf(Tuple.of(6, odd), Tuple.of(1, veryLong)), Arbitraries.integers().between(0, 4))
        .as((line, at) -> new Framing("header line " + printable(line) + " at " + at, Effect.LENIENT,
            message -> message.withHeader(at, line).lengthFramed()));
  }

  private static Arbitrary<Chunking> chunkings() {
    return Combinators.combine(Arbitraries.doubles().between(0, 1).ofScale(3).list().ofMaxSize(3), Arbitraries.of(true, false),
        Arbitraries.of(true, false), Arbitraries.of(true, false)).as(Chunking::new);
  }

  /**
   * How a body is cut into chunks: at these fractions of it (never an empty chunk before the last, which
   * would end the body), its sizes in upper or lower case hex, each with an extension or not, the last
   * chunk with a trailer or not.
   */
  record Chunking(List<Double> cuts, boolean upperCase, boolean extensions, boolean trailer) {
    byte[] encode(byte[] body) {
      ByteArrayOutputStream chunks = new ByteArrayOutputStream();
      int[] ends = cuts.stream().mapToInt(fraction -> (int) (fraction * body.length)).filter(end -> end > 0 && end < body.length)
          .sorted().distinct().toArray();
      int start = 0;
      for (int end : ends) {
        chunk(chunks, Arrays.copyOfRange(body, start, end));
        start = end;
      }
      if (start < body.length) {
        chunk(chunks, Arrays.copyOfRange(body, start, body.length));
      }
      chunks.writeBytes(("0\r\n" + (trailer ? "X-Fuzz-Trailer: 1\r\n" : "") + "\r\n").getBytes(US_ASCII));
      return chunks.toByteArray();
    }

    private void chunk(ByteArrayOutputStream chunks, byte[] data) {
      String size = Integer.toHexString(data.length);
      chunks.writeBytes(((upperCase ? size.toUpperCase(Locale.ROOT) : size) + (extensions ? ";fuzz=1" : "") + "\r\n").getBytes(US_ASCII));
      chunks.writeBytes(data);
      chunks.writeBytes("\r\n".getBytes(US_ASCII));
    }

    @Override
    public String toString() {
      return "at " + cuts + (upperCase ? ", upper case" : "") + (extensions ? ", extensions" : "") + (trailer ? ", a trailer" : "");
    }
  }

  /** An answer's parts, before framing. */
  record Message(int status, String statusLine, List<String> headers, byte[] body) {
    /** The generated answer to the request {@code requestId}, saying the connection closes after it. */
    static Message of(GeneratedAnswer answer, String requestId) {
      List<String> headers = new ArrayList<>(answer.headers());
      headers.add("X-Request-Id: " + requestId);
      if (!headers.contains("Connection: close")) {
        headers.add("Connection: close");
      }
      return new Message(answer.status(), "HTTP/1.1 " + answer.status() + " Fuzzed", headers, answer.body().getBytes(UTF_8));
    }

    Message withStatusLine(String line) {
      return new Message(status, line, headers, body);
    }

    Message withHeader(int at, String line) {
      List<String> more = new ArrayList<>(headers);
      more.add(Math.min(at, headers.size()), line);
      return new Message(status, statusLine, more, body);
    }

    /** The body, then JSON's insignificant whitespace up to {@code size} bytes: what it means is unchanged. */
    Message paddedTo(int size) {
      byte[] padded = Arrays.copyOf(body, size);
      Arrays.fill(padded, body.length, size, (byte) ' ');
      return new Message(status, statusLine, headers, padded);
    }

    byte[] lengthFramed() {
      return framed(List.of("Content-Length: " + body.length), body);
    }

    byte[] chunked(byte[] chunks) {
      return framed(List.of("Transfer-Encoding: chunked"), chunks);
    }

    /**
     * The status line and header lines, then {@code framing}'s, then {@code content}. The head goes out
     * in ISO-8859-1, a byte for each character, so a header can hold bytes that are no UTF-8.
     */
    byte[] framed(List<String> framing, byte[]... content) {
      StringBuilder head = new StringBuilder(statusLine).append("\r\n");
      headers.forEach(line -> head.append(line).append("\r\n"));
      framing.forEach(line -> head.append(line).append("\r\n"));
      byte[] bytes = head.append("\r\n").toString().getBytes(ISO_8859_1);
      for (byte[] part : content) {
        bytes = concat(bytes, part);
      }
      return bytes;
    }
  }

  /** A way of putting a message on the wire, named for what it does, and what it leaves of the answer. */
  record Framing(String name, Effect effect, Function<Message, byte[]> frame) {
    @Override
    public String toString() {
      return name + " (" + effect + ")";
    }
  }

  /** A generated answer, framed; its bytes are made as it is sent, so no 2 MiB answer is kept between tries. */
  record RawAnswer(Call call, GeneratedAnswer answer, Framing framing) implements FuzzedAnswer {
    @Override
    public WireAnswer wire(String requestId) {
      return new WireAnswer(framing.frame().apply(Message.of(answer, requestId)), true);
    }

    @Override
    public int requestsAllowed() {
      return answer.requestsAllowed();
    }

    @Override
    public boolean provesNothingBooked() {
      return framing.effect() != Effect.VOID && answer.provesNothingBooked();
    }

    @Override
    public void check(List<Shipment> result, Throwable thrown) {
      if (thrown != null) {
        assertThat(thrown).as("what escaped the client for %s", this).isInstanceOf(PartnerException.class);
      }
      Optional<NotBooked> proof = thrown instanceof PartnerException failure ? failure.notBooked() : Optional.empty();
      if (call == Call.LOOKUP) {
        assertThat(proof).as("a proof from a lookup, which books nothing, for %s", this).isEmpty();
      }
      switch (framing.effect()) {
        case INTACT -> answer.check(result, thrown);
        case VOID -> {
          assertThat(thrown).as("what the client made of %s", this).isExactlyInstanceOf(call.unreadable);
          assertThat(proof).as("the proof read from %s", this).isEmpty();
        }
        case LENIENT -> {
          // A list, a shipment or a proof only as the answer, whole, has it; any failure without a proof is safe.
          if (thrown == null || proof.isPresent()) {
            answer.check(result, thrown);
          }
        }
      }
    }

    @Override
    public String toString() {
      return call + " answer " + answer + ", framed: " + framing;
    }
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] both = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }

  /** Control characters as escapes, a long line by its length: a line of the report, not of the wire. */
  private static String printable(String text) {
    if (text.length() > 64) {
      return "'" + text.substring(0, 16) + "...' (" + text.length() + " characters)";
    }
    StringBuilder shown = new StringBuilder("'");
    text.chars().forEach(c -> shown.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", c) : String.valueOf((char) c)));
    return shown.append("'").toString();
  }
}
