package com.acme.fulfil.local.scenario;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

/**
 * The fulfil-order function as it ran during the incident, rebuilt from the incident's description so the local run can
 * replay it: for each record it posts the order to the partner and books a courier, with no
 * idempotency, no look-up and no deadline; anything but 201 is thrown, so the event source mapping
 * retries the message forever (there was no DLQ). It reads the partner key once, at cold start.
 *
 * <p>It exists only as the "before" half of the side-by-side run; nothing of this project uses it.
 */
public final class IncidentHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
  private final HttpClient http = HttpClient.newHttpClient();
  private final URI shipments;
  private final String apiKey;

  public IncidentHandler(URI partnerBaseUrl, String apiKey) {
    this.shipments = partnerBaseUrl.resolve("/v1/shipments");
    this.apiKey = apiKey;
  }

  @Override
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
    for (SQSEvent.SQSMessage record : event.getRecords()) {
      book(record);
    }
    return new SQSBatchResponse(List.of());
  }

  private void book(SQSEvent.SQSMessage record) {
    HttpRequest request = HttpRequest.newBuilder(shipments)
        .header("Content-Type", "application/json")
        .header("X-Api-Key", apiKey)
        .header("X-Request-Id", record.getMessageId())
        .POST(HttpRequest.BodyPublishers.ofString(record.getBody()))
        .build();
    try {
      int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
      if (status != 201) {
        throw new IllegalStateException("partner answered " + status + " for message " + record.getMessageId());
      }
    } catch (IOException e) {
      throw new IllegalStateException("partner call failed for message " + record.getMessageId(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("invocation abandoned during the partner call", e);
    }
  }
}
