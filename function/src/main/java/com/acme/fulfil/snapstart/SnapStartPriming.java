package com.acme.fulfil.snapstart;

import com.acme.fulfil.booking.Booking;
import com.acme.fulfil.booking.CallWindow;
import com.acme.fulfil.booking.OrderRecords;
import com.acme.fulfil.observability.JsonLogFormatter;
import com.acme.fulfil.order.InvalidOrder;
import com.acme.fulfil.order.OrderMessage;
import com.acme.fulfil.order.OrderParser;
import com.acme.fulfil.order.ValidOrder;
import com.acme.fulfil.partner.Deadline;
import com.acme.fulfil.partner.PartnerClient;
import com.acme.fulfil.partner.ShipmentRequest;
import com.acme.fulfil.queue.MessageReturns;
import com.acme.fulfil.secrets.ApiKeySource;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import okhttp3.OkHttpClient;
import org.crac.Context;
import org.crac.Resource;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * SnapStart's priming: before Lambda snapshots the initialised function, walk one made-up order along
 * the hot path so the snapshot holds loaded, initialised and partly compiled classes instead of leaving
 * that work to the first invocation after every restore (docs/performance.md measures how much moves).
 *
 * <p>Nothing reaches a real resource. The production SDK clients marshal, sign and send their requests
 * to a loopback endpoint ({@link LoopbackRedirect}), which also stands in for the partner; the partner
 * call uses the production OkHttp client but a client and key source of its own, so the real API key
 * cache stays empty; the TLS handshake goes as far as the ClientHello, which is never sent. No metric is
 * recorded and nothing is logged.
 */
public final class SnapStartPriming implements Resource {
  static final String ORDER_ID = "ORD-SNAPSTART-PRIMING";
  private static final String ORDER = """
      {"order_id":"ORD-SNAPSTART-PRIMING","placed_at":"2026-01-01T00:00:00Z","service":"standard",
       "ship_to":{"name":"Priming","line1":"1 Loopback Street","line2":null,"city":"Localhost",
                  "postcode":"AB1 2CD","country":"GB"},
       "parcels":[{"weight_grams":1000}]}""";
  private static final String QUEUE_ARN = "arn:aws:sqs:us-east-1:000000000000:snapstart-priming";
  private static final Duration CALL_BUDGET = Duration.ofSeconds(5);

  private final OrderParser parser;
  private final OrderRecords records;
  private final OkHttpClient http;
  private final ObjectMapper json;
  private final SecretsManagerClient secretsManager;
  private final MessageReturns returns;
  private final LoopbackRedirect loopback;
  private final String partnerHost;

  public SnapStartPriming(OrderParser parser, OrderRecords records, OkHttpClient http, ObjectMapper json,
      SecretsManagerClient secretsManager, MessageReturns returns, LoopbackRedirect loopback, URI partnerBaseUrl) {
    this.parser = parser;
    this.records = records;
    this.http = http;
    this.json = json;
    this.secretsManager = secretsManager;
    this.returns = returns;
    this.loopback = loopback;
    this.partnerHost = partnerBaseUrl.getHost();
  }

  @Override
  public void beforeCheckpoint(Context<? extends Resource> context) throws Exception {
    OrderMessage order = switch (parser.parse(ORDER)) {
      case ValidOrder valid -> valid.order();
      case InvalidOrder invalid -> throw new IllegalStateException("the priming order is invalid: " + invalid.reason());
    };
    try (LoopbackEndpoint endpoint = LoopbackEndpoint.start();
        LoopbackRedirect.Scope redirected = loopback.redirectThisThread(endpoint.uri())) {
      claimAndCompleteTheRecord();
      lookUpAndBookWithThePartner(order, endpoint.uri());
      returns.returnAll(List.of(new MessageReturns.Return(rejectedMessage(), Duration.ZERO)));
    }
    beginTlsHandshake();
    new JsonLogFormatter().format(new LogRecord(Level.INFO, "priming"));
  }

  /** Nothing to do: priming left no connection open and no state behind. */
  @Override
  public void afterRestore(Context<? extends Resource> context) {}

  private void claimAndCompleteTheRecord() {
    // The loopback answers as DynamoDB does for an order nobody has claimed yet.
    if (!(records.claim(ORDER_ID, "snapstart-priming", new CallWindow(Clock.systemUTC(), CALL_BUDGET::toMillis, Duration.ZERO, CALL_BUDGET, CALL_BUDGET)) instanceof OrderRecords.Claim claim)) {
      throw new IllegalStateException("the loopback did not answer the priming claim as a new order");
    }
    records.beforeBookingRequest(claim);
    records.complete(claim, new Booking(ORDER_ID, "SHP-SNAPSTART-PRIMING", "0", "priming", "https://127.0.0.1/label",
        Booking.Source.BOOKED, "snapstart-priming"));
  }

  private void lookUpAndBookWithThePartner(OrderMessage order, URI endpoint) {
    PartnerClient partner = new PartnerClient(http, endpoint, new ApiKeySource(secretsManager, "snapstart-priming"), json);
    partner.lookup(order.orderId(), "snapstart-priming", Optional.empty(), Deadline.in(CALL_BUDGET));
    partner.book(ShipmentRequest.of(order), "snapstart-priming", Optional.empty(), Deadline.in(CALL_BUDGET));
  }

  private static SQSMessage rejectedMessage() {
    SQSMessage message = new SQSMessage();
    message.setMessageId("snapstart-priming");
    message.setReceiptHandle("snapstart-priming");
    message.setEventSourceArn(QUEUE_ARN);
    message.setAttributes(Map.of("ApproximateReceiveCount", "1"));
    return message;
  }

  /** JSSE and the key exchange: the ClientHello is produced into a buffer and dropped. */
  private void beginTlsHandshake() throws Exception {
    SSLEngine engine = SSLContext.getDefault().createSSLEngine(partnerHost, 443);
    engine.setUseClientMode(true);
    engine.beginHandshake();
    engine.wrap(ByteBuffer.allocate(0), ByteBuffer.allocate(engine.getSession().getPacketBufferSize()));
    engine.closeOutbound();
  }
}
