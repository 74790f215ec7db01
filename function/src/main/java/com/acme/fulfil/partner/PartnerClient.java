package com.acme.fulfil.partner;

import com.acme.fulfil.observability.TraceContext;
import com.acme.fulfil.secrets.ApiKeySource;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * The partner API v1 (docs/partner-api.md): book a shipment, look bookings up. Knows HTTP and the key;
 * what each answer means is {@link PartnerAnswers}'; knows nothing of SQS or idempotency.
 */
public final class PartnerClient implements PartnerApi {
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
  private static final String API_KEY = "X-Api-Key";
  private static final String REQUEST_ID = "X-Request-Id";
  /** The W3C header; the partner's contract allows headers it does not name (docs/partner-api.md). */
  private static final String TRACEPARENT = "traceparent";

  private final OkHttpClient http;
  private final HttpUrl shipments;
  private final ApiKeySource keys;
  private final ObjectMapper json;
  private final PartnerAnswers answers;

  /**
   * Whatever {@code http} was built with, every call goes through {@link OneRequestPerCall}: one request
   * on the wire for each call this client makes.
   */
  public PartnerClient(OkHttpClient http, URI baseUrl, ApiKeySource keys, ObjectMapper json) {
    this.http = http.newBuilder().addNetworkInterceptor(new OneRequestPerCall()).build();
    this.shipments = HttpUrl.get(baseUrl.toString()).newBuilder().addPathSegments("v1/shipments").build();
    this.keys = keys;
    this.json = json;
    this.answers = new PartnerAnswers(json);
  }

  /**
   * An HTTP client fit for calls that legitimately take minutes: no read timeout (the per-call
   * deadline bounds every call) and no silent retry, because OkHttp would otherwise resend a POST on
   * a broken pooled connection and the partner, which never deduplicates, would book twice (the
   * follow-ups these settings do not reach, {@link PartnerClient} refuses with {@link OneRequestPerCall}). Without
   * that retry, a pooled connection the far end has already closed fails the next call, so idle
   * connections are dropped well before a load balancer's usual 30-60 s idle timeout.
   */
  public static OkHttpClient httpClient() {
    return new OkHttpClient.Builder()
        .connectionPool(new ConnectionPool(10, 15, TimeUnit.SECONDS))
        .connectTimeout(Duration.ofSeconds(5))
        .readTimeout(Duration.ZERO)
        .writeTimeout(Duration.ZERO)
        .retryOnConnectionFailure(false)
        .followRedirects(false)
        .build();
  }

  @Override
  public Shipment book(ShipmentRequest request, String requestId, Optional<TraceContext> trace, Deadline deadline) {
    byte[] body;
    try {
      body = json.writeValueAsBytes(request);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise the shipment request", e);
    }
    RequestBody requestBody = RequestBody.create(body, JSON);
    Answer answer = exchange(() -> new Request.Builder().url(shipments).post(requestBody), requestId, trace, deadline, true);
    return answers.booking(request.orderId(), answer.status(), answer.body(), answer.retryAfter(), answer.answeredAt());
  }

  @Override
  public List<Shipment> lookup(String orderId, String requestId, Optional<TraceContext> trace, Deadline deadline) {
    HttpUrl url = shipments.newBuilder().addQueryParameter("order_id", orderId).build();
    Answer answer = exchange(() -> new Request.Builder().url(url).get(), requestId, trace, deadline, false);
    return answers.lookup(orderId, answer.status(), answer.body());
  }

  /**
   * One HTTP answer, and when it came: the latest moment the partner can have received the request
   * (DNS, connect, TLS and the write may take seconds of the deadline before it leaves).
   */
  private record Answer(int status, String body, String retryAfter, Instant answeredAt) {}

  /**
   * Sends the request with the current key; on a 401, once more with the key re-read from the secret.
   * Each request sent is a span of its own in the order's trace.
   */
  private Answer exchange(Supplier<Request.Builder> request, String requestId, Optional<TraceContext> trace, Deadline deadline,
      boolean mayBook) {
    String key = keys.current();
    for (boolean refreshed = false; ; refreshed = true) {
      Request.Builder builder = request.get().header(API_KEY, key).header(REQUEST_ID, requestId);
      trace.ifPresent(order -> builder.header(TRACEPARENT, order.child().traceparent()));
      Request httpRequest = OneRequestPerCall.ticketed(builder);
      try (Response response = call(httpRequest, deadline)) {
        if (response.code() == 401 && !refreshed) {
          key = keys.refreshAfterRejection(key);
          continue;
        }
        String body = response.body().string();
        return new Answer(response.code(), body, response.header("Retry-After"), Instant.now());
      } catch (IOException e) {
        // Until this moment the request may still have been on its way to the partner.
        throw lostExchange(e, mayBook, Instant.now());
      }
    }
  }

  private Response call(Request request, Deadline deadline) throws IOException {
    Duration remaining = deadline.remaining();
    if (remaining.isZero()) {
      throw new PartnerUnavailableException("no time left to call the partner", null);
    }
    Call call = http.newCall(request);
    call.timeout().timeout(remaining.toMillis(), TimeUnit.MILLISECONDS);
    return call.execute();
  }

  private static PartnerException lostExchange(IOException e, boolean mayBook, Instant stoppedWaitingAt) {
    boolean neverSent = e instanceof ConnectException || e instanceof UnknownHostException;
    String what = e instanceof InterruptedIOException ? "deadline passed" : e.getClass().getSimpleName();
    if (mayBook && !neverSent) {
      return new PartnerOutcomeUnknownException(
          "booking request sent but no answer (" + what + "): the partner may have booked", e, stoppedWaitingAt);
    }
    return new PartnerUnavailableException("partner unreachable (" + what + ")", e);
  }
}
