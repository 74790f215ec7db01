package com.acme.fulfil.sim;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** A plain HTTP caller of the partner API, as a client would be, for the simulator's own tests. */
final class PartnerHttp {

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final URI shipments;

  PartnerHttp(URI baseUrl) {
    this.shipments = baseUrl.resolve("/v1/shipments");
  }

  static String order(String orderId) {
    return order(orderId, "GB", "SW1Y 4JH");
  }

  static String order(String orderId, String country, String postcode) {
    return """
        {"order_id":"%s","service":"standard",
         "ship_to":{"name":"Ada Lovelace","line1":"12 St James's Square","line2":null,
                    "city":"London","postcode":"%s","country":"%s"},
         "parcels":[{"weight_grams":1200}]}""".formatted(orderId, postcode, country);
  }

  HttpRequest.Builder bookingRequest(String apiKey, String body) {
    return HttpRequest.newBuilder(shipments)
        .header("Content-Type", "application/json")
        .header("X-Api-Key", apiKey)
        .POST(HttpRequest.BodyPublishers.ofString(body));
  }

  HttpResponse<String> book(String apiKey, String body) throws IOException, InterruptedException {
    return send(bookingRequest(apiKey, body));
  }

  CompletableFuture<HttpResponse<String>> bookAsync(String apiKey, String body) {
    return http.sendAsync(bookingRequest(apiKey, body).build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpRequest.Builder lookupRequest(String apiKey, String orderId) {
    URI lookup = URI.create(shipments + "?order_id=" + URLEncoder.encode(orderId, StandardCharsets.UTF_8));
    return HttpRequest.newBuilder(lookup)
        .header("X-Api-Key", apiKey)
        .GET();
  }

  HttpResponse<String> lookup(String apiKey, String orderId) throws IOException, InterruptedException {
    return send(lookupRequest(apiKey, orderId));
  }

  HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
