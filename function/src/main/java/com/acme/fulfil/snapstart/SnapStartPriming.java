package com.acme.fulfil.snapstart;

import static com.acme.fulfil.contract.records.OrderRecordLayout.KEY;
import static com.acme.fulfil.contract.records.OrderRecordLayout.keyOf;

import com.acme.fulfil.observability.JsonLogFormatter;
import com.acme.fulfil.order.InvalidOrder;
import com.acme.fulfil.order.OrderParser;
import com.acme.fulfil.order.ValidOrder;
import com.acme.fulfil.partner.ShipmentRequest;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.crac.Context;
import org.crac.Resource;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * SnapStart's priming, as AWS documents it: before the snapshot, run the hot path once with real calls that change
 * nothing, so the snapshot holds loaded, initialised classes instead of each restore's first invocation loading them.
 * Nothing reaches the secret (the key must not sit in a snapshot), the queue or the partner.
 */
public final class SnapStartPriming implements Resource {
  private static final String ORDER = """
      {"order_id":"ORD-SNAPSTART-PRIMING","placed_at":"2026-01-01T00:00:00Z","service":"standard",
       "ship_to":{"name":"Priming","line1":"1 Priming Street","line2":null,"city":"Nowhere",
                  "postcode":"AB1 2CD","country":"GB"},
       "parcels":[{"weight_grams":1000}]}""";

  private final OrderParser parser;
  private final ObjectMapper json;
  private final DynamoDbClient dynamoDb;
  private final String table;
  private final String functionName;
  private final String partnerHost;

  public SnapStartPriming(OrderParser parser, ObjectMapper json, DynamoDbClient dynamoDb, String table,
      String functionName, URI partnerBaseUrl) {
    this.parser = parser;
    this.json = json;
    this.dynamoDb = dynamoDb;
    this.table = table;
    this.functionName = functionName;
    this.partnerHost = partnerBaseUrl.getHost();
  }

  @Override
  public void beforeCheckpoint(Context<? extends Resource> context) throws Exception {
    var order = switch (parser.parse(ORDER)) {
      case ValidOrder valid -> valid.order();
      case InvalidOrder invalid -> throw new IllegalStateException("the priming order is invalid: " + invalid.reason());
    };
    json.writeValueAsBytes(ShipmentRequest.of(order));
    try {
      dynamoDb.getItem(r -> r.tableName(table).consistentRead(true)
          .key(Map.of(KEY, AttributeValue.fromS(keyOf(functionName, order.orderId())))));
    } catch (SdkException e) {
      // Priming only saves time: a table that cannot be read now must not stop the version from publishing.
    }
    beginTlsHandshake();
    new JsonLogFormatter().format(new LogRecord(Level.INFO, "priming"));
  }

  /** Nothing to do: priming left no connection of its own open and no state behind. */
  @Override
  public void afterRestore(Context<? extends Resource> context) {}

  /** JSSE and the key exchange: the ClientHello is produced into a buffer and dropped. */
  private void beginTlsHandshake() throws Exception {
    SSLEngine engine = SSLContext.getDefault().createSSLEngine(partnerHost, 443);
    engine.setUseClientMode(true);
    engine.beginHandshake();
    engine.wrap(ByteBuffer.allocate(0), ByteBuffer.allocate(engine.getSession().getPacketBufferSize()));
    engine.closeOutbound();
  }
}
