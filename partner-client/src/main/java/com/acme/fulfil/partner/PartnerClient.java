package com.acme.fulfil.partner;

import com.acme.fulfil.contract.records.TraceHeaders;
import com.acme.fulfil.trace.TraceContext;
import com.acme.fulfil.secrets.ApiKeySource;
import com.acme.fulfil.secrets.SecretUnavailableException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ProtocolException;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/** The partner API v1 (docs/partner-api.md) over HTTP with its key; what an answer means is {@link PartnerAnswers}'. */
public final class PartnerClient implements PartnerApi {
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
  private static final String API_KEY = "X-Api-Key";
  /** Unique to every HTTP request; the partner echoes it, and only an answer that does is an answer to it. */
  static final String REQUEST_ID = "X-Request-Id";
  /** Far above any answer the contract describes (a lookup lists one order's bookings), far below the function's memory. */
  private static final int MAX_ANSWER_BYTES = 1 << 20;
  /** A Content-Length as HTTP has one: decimal digits, as many as a long holds. */
  private static final Pattern CONTENT_LENGTH = Pattern.compile("[0-9]{1,18}");

  /** Lookups: pooled connections, each answer bound to its request by its echoed id. */
  private final OkHttpClient pooled;
  /** Booking requests, and a lookup's second chance: a new connection for each request, closed once it is answered. */
  private final OkHttpClient fresh;
  private final HttpUrl shipments;
  private final ApiKeySource keys;
  private final ObjectMapper json;
  private final PartnerAnswers answers;

  /**
   * Whatever {@code http} was built with, every call goes through {@link OneRequestPerCall} and {@link
   * AnswerToThisRequest}, over HTTP/1.1 (over HTTP/2 a call that ends resets only its stream, and the connection goes
   * on delivering the request), straight to the partner, never through a proxy ({@link DirectSockets}). A booking
   * request gets a connection of its own: with no idle connection kept, OkHttp opens one for each request and closes
   * it once answered, so no earlier answer can have left bytes on it, and none of its own serves a later request.
   */
  public PartnerClient(OkHttpClient http, URI baseUrl, ApiKeySource keys, ObjectMapper json) {
    this.pooled = http.newBuilder().protocols(List.of(Protocol.HTTP_1_1)).proxy(Proxy.NO_PROXY)
        .socketFactory(new DirectSockets()).addNetworkInterceptor(new OneRequestPerCall())
        .addNetworkInterceptor(new AnswerToThisRequest()).build();
    this.fresh = pooled.newBuilder().connectionPool(new ConnectionPool(0, 1, TimeUnit.SECONDS)).build();
    this.shipments = HttpUrl.get(baseUrl.toString()).newBuilder().addPathSegments("v1/shipments").build();
    this.keys = keys;
    this.json = json;
    this.answers = new PartnerAnswers(json);
  }

  /**
   * An HTTP client for calls that may take minutes: no read timeout (the per-call deadline bounds every call) and no
   * silent retry, which would resend a POST on a broken connection and book twice. Only lookups pool connections, and
   * one the far end closed costs a lookup sent again; idle ones go well before a load balancer's usual 30-60 s idle
   * timeout.
   */
  public static OkHttpClient httpClient() {
    return new OkHttpClient.Builder().connectionPool(new ConnectionPool(10, 15, TimeUnit.SECONDS))
        .connectTimeout(Duration.ofSeconds(5)).readTimeout(Duration.ZERO).writeTimeout(Duration.ZERO)
        .retryOnConnectionFailure(false).followRedirects(false).build();
  }

  /** Books, or throws only a {@link PartnerException}: an unknown outcome unless a {@link NotBooked} proof says not. */
  @Override
  public Shipment book(ShipmentRequest request, String attemptId, Optional<TraceContext> trace, Deadline deadline) {
    Answer answer;
    try {
      RequestBody body = RequestBody.create(json.writeValueAsBytes(request), JSON);
      answer = exchange(fresh, () -> new Request.Builder().url(shipments).post(body), attemptId, trace, deadline);
    } catch (LostExchange lost) {
      throw lost.mayHaveLeft
          ? new PartnerOutcomeUnknownException("booking request sent but no answer (" + lost.what() + "): the partner may have booked",
              lost.getCause())
          : PartnerUnavailableException.neverSent("booking request never left (" + lost.what() + ")", lost.getCause());
    } catch (JsonProcessingException e) {
      throw PartnerUnavailableException.neverSent("cannot serialise the shipment request", e);
    }
    try {
      return answers.booking(request.orderId(), answer.status(), answer.body(), answer.retryAfter());
    } catch (PartnerException classified) {
      throw classified;
    } catch (RuntimeException unreadable) {
      throw new PartnerOutcomeUnknownException("partner answered " + answer.status() + " and the answer could not be read", unreadable);
    }
  }

  /**
   * Every booking of the order, or a {@link PartnerException} and nothing else. The lookup asks for the partner's own
   * answer, not a cache's ({@code Cache-Control: no-cache}). One that brought no answer (a pooled connection the partner
   * had closed as it went out, an answer not bound to it) goes again once on a fresh connection: it books nothing.
   */
  @Override
  public List<Shipment> lookup(String orderId, String attemptId, Optional<TraceContext> trace, Deadline deadline) {
    HttpUrl url = shipments.newBuilder().addQueryParameter("order_id", orderId).build();
    Supplier<Request.Builder> request = () -> new Request.Builder().url(url).get().header("Cache-Control", "no-cache");
    Answer answer;
    try {
      answer = exchange(pooled, request, attemptId, trace, deadline);
    } catch (LostExchange lost) {
      if (!lost.worthSendingAgain()) {
        throw PartnerUnavailableException.lookupFailed("partner unreachable (" + lost.what() + ")", lost.getCause());
      }
      try {
        answer = exchange(fresh, request, attemptId, trace, deadline);
      } catch (LostExchange again) {
        throw PartnerUnavailableException.lookupFailed("partner unreachable (" + lost.what() + ", then on a fresh connection "
            + again.what() + ")", again.getCause());
      }
    }
    try {
      return answers.lookup(orderId, answer.status(), answer.body());
    } catch (PartnerException classified) {
      throw classified;
    } catch (RuntimeException unreadable) {
      throw PartnerUnavailableException.lookupFailed("partner answered a lookup that could not be read", unreadable);
    }
  }

  private record Answer(int status, String body, String retryAfter) {}

  /** An exchange that ended without an answer, and whether its last request may have reached the network. */
  private static final class LostExchange extends Exception {
    private final boolean mayHaveLeft;

    LostExchange(Exception cause, boolean mayHaveLeft) {
      super(cause);
      this.mayHaveLeft = mayHaveLeft;
    }

    String what() {
      return getCause() instanceof InterruptedIOException ? "deadline passed" : getCause().getClass().getSimpleName();
    }

    /** The connection failed or answered something else, with time left: a lookup may go again. */
    boolean worthSendingAgain() {
      return getCause() instanceof IOException && !(getCause() instanceof InterruptedIOException);
    }
  }

  /**
   * Sends the request with the current key; on the partner's own 401 to it ({@code invalid_api_key}), once more with
   * the key re-read from the secret. Each request has an id of its own, the attempt's id and a random part, so that an
   * answer to any other request (the lookup's, the first of two, another order's) cannot pass for its answer. Each is
   * a span of its own in the order's trace, in W3C's header, which the contract allows as a header it does not name.
   *
   * @throws PartnerUnavailableException the partner refused the key and the secret could not be read again
   */
  private Answer exchange(OkHttpClient http, Supplier<Request.Builder> request, String attemptId, Optional<TraceContext> trace,
      Deadline deadline) throws LostExchange {
    Request httpRequest = null;
    try {
      String key = keys.current();
      for (boolean refreshed = false; ; refreshed = true) {
        Request.Builder builder = request.get().header(API_KEY, key).header(REQUEST_ID, attemptId + "-" + UUID.randomUUID());
        trace.ifPresent(order -> builder.header(TraceHeaders.TRACEPARENT, order.child().traceparent()));
        httpRequest = OneRequestPerCall.ticketed(builder);
        Answer answer;
        try (Response response = call(http, httpRequest, deadline)) {
          requireFraming(response);
          answer = new Answer(response.code(), body(response), response.header("Retry-After"));
        }
        if (refreshed || !answers.keyRefused(answer.status(), answer.body())) {
          return answer;
        }
        // The partner refused this request's key and its answer was let go: nothing of it was booked, and only the
        // next request can still be on its way. Not before: closing an answer OkHttp cannot skip (a negative
        // Content-Length) throws, and the 401 proves nothing.
        httpRequest = null;
        key = reReadAfterRefusal(key);
      }
    } catch (PartnerUnavailableException keyNotReRead) {
      throw keyNotReRead;
    } catch (IOException | RuntimeException e) {
      throw new LostExchange(e, httpRequest != null && OneRequestPerCall.mayHaveLeft(httpRequest));
    }
  }

  private String reReadAfterRefusal(String refusedKey) {
    try {
      return keys.refreshAfterRejection(refusedKey);
    } catch (SecretUnavailableException e) {
      throw PartnerUnavailableException.keyNotReRead(
          "partner refused the API key (401) and the secret could not be read again: " + e.getMessage(), e);
    }
  }

  /**
   * RFC 9112 (section 6.3): a Content-Length that is not one decimal number (negative, a word, two that disagree) is
   * invalid framing, not to be recovered from. OkHttp reads a body of a length it cannot parse to the connection's end
   * and takes the last of two lengths, so the status and body it hands on prove nothing.
   */
  private static void requireFraming(Response response) throws ProtocolException {
    List<String> lengths = response.headers("Content-Length");
    if (lengths.stream().distinct().count() > 1 || !lengths.stream().allMatch(length -> CONTENT_LENGTH.matcher(length).matches())) {
      throw new ProtocolException("answer framed by an invalid Content-Length " + lengths);
    }
  }

  /** The answer's body as text; one larger than any answer the contract describes is none we can read. */
  private static String body(Response response) throws IOException {
    byte[] bytes = response.body().byteStream().readNBytes(MAX_ANSWER_BYTES + 1);
    if (bytes.length > MAX_ANSWER_BYTES) {
      throw new IOException("answer larger than " + MAX_ANSWER_BYTES + " bytes");
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static Response call(OkHttpClient http, Request request, Deadline deadline) throws IOException {
    Duration remaining = deadline.remaining();
    if (remaining.isZero()) {
      throw new InterruptedIOException("no time left to call the partner");
    }
    Call call = http.newCall(request);
    // In nanoseconds: under a millisecond left would round to 0, which OkHttp reads as no timeout at all.
    call.timeout().timeout(remaining.toNanos(), TimeUnit.NANOSECONDS);
    return call.execute();
  }
}
