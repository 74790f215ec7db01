package com.acme.fulfil.partner;

import com.acme.fulfil.secrets.ApiKeySource;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
 * The partner API v1 ({@code shared/contracts/partner-api.md}): book a shipment, look bookings up.
 * Knows HTTP, the key and the status codes; knows nothing of SQS or idempotency.
 */
public final class PartnerClient {
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
  private static final String API_KEY = "X-Api-Key";
  private static final String REQUEST_ID = "X-Request-Id";

  private final OkHttpClient http;
  private final HttpUrl shipments;
  private final ApiKeySource keys;
  private final ObjectMapper json;

  public PartnerClient(OkHttpClient http, URI baseUrl, ApiKeySource keys, ObjectMapper json) {
    this.http = http;
    this.shipments = HttpUrl.get(baseUrl.toString()).newBuilder().addPathSegments("v1/shipments").build();
    this.keys = keys;
    this.json = json;
  }

  /**
   * An HTTP client fit for calls that legitimately take minutes: no read timeout (the per-call
   * deadline bounds every call) and no silent retry, because OkHttp would otherwise resend a POST on
   * a broken pooled connection and the partner, which never deduplicates, would book twice. Without
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

  /** {@code POST /v1/shipments}: books one more courier, whatever was booked before. */
  public Shipment book(ShipmentRequest request, String requestId, Deadline deadline) {
    byte[] body;
    try {
      body = json.writeValueAsBytes(request);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise the shipment request", e);
    }
    RequestBody requestBody = RequestBody.create(body, JSON);
    return exchange(() -> new Request.Builder().url(shipments).post(requestBody), requestId, deadline, true,
        node -> json.convertValue(node, Shipment.class));
  }

  /** {@code GET /v1/shipments?order_id=}: every booking for the order, oldest first. */
  public List<Shipment> lookup(String orderId, String requestId, Deadline deadline) {
    HttpUrl url = shipments.newBuilder().addQueryParameter("order_id", orderId).build();
    return exchange(() -> new Request.Builder().url(url).get(), requestId, deadline, false,
        node -> List.of(json.convertValue(node.path("shipments"), Shipment[].class)));
  }

  private <T> T exchange(Supplier<Request.Builder> request, String requestId, Deadline deadline,
      boolean mayBook, Function<JsonNode, T> reader) {
    String key = keys.current();
    for (boolean refreshed = false; ; refreshed = true) {
      Request httpRequest = request.get().header(API_KEY, key).header(REQUEST_ID, requestId).build();
      try (Response response = call(httpRequest, deadline)) {
        int status = response.code();
        if (status == 401 && !refreshed) {
          key = keys.refreshAfterRejection(key);
          continue;
        }
        String body = response.body().string();
        return switch (status) {
          case 200, 201 -> reader.apply(json.readTree(body));
          case 400, 422 -> throw new PartnerRejectedException(status, errorCode(body));
          case 401 -> throw new PartnerUnavailableException(
              "partner refused the API key even after re-reading the secret (401): rotate the secret", null);
          case 429 -> throw new PartnerUnavailableException(
              "partner rate limited the call (429, Retry-After " + response.header("Retry-After") + " s)", null);
          default -> throw new PartnerUnavailableException("partner answered " + status, null);
        };
      } catch (IOException e) {
        throw lostExchange(e, mayBook);
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

  private static PartnerException lostExchange(IOException e, boolean mayBook) {
    boolean neverSent = e instanceof ConnectException || e instanceof UnknownHostException;
    String what = e instanceof InterruptedIOException ? "deadline passed" : e.getClass().getSimpleName();
    if (mayBook && !neverSent) {
      return new PartnerOutcomeUnknownException("booking request sent but no answer (" + what + "): the partner may have booked", e);
    }
    return new PartnerUnavailableException("partner unreachable (" + what + ")", e);
  }

  private String errorCode(String body) {
    try {
      return json.readTree(body).path("error").asText("unknown_error");
    } catch (JsonProcessingException e) {
      return "unreadable_error_body";
    }
  }
}
