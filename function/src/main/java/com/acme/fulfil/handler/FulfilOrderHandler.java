package com.acme.fulfil.handler;

import com.acme.fulfil.contract.MetricNames;
import com.acme.fulfil.booking.CallWindow;
import com.acme.fulfil.config.FunctionConfig;
import com.acme.fulfil.observability.FulfilmentMetrics;
import com.acme.fulfil.observability.FunctionLogging;
import com.acme.fulfil.snapstart.SnapStartPriming;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.time.Clock;
import java.util.Map;

/**
 * The fulfil-order Lambda: an SQS batch in, one courier booking per order out, and a partial batch
 * response naming the records to retry. Handler string:
 * {@code com.acme.fulfil.handler.FulfilOrderHandler::handleRequest}.
 *
 * <p>Everything is built once per container, from the environment read once.
 */
public final class FulfilOrderHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
  private final FunctionConfig config;
  private final BatchProcessor batch;
  private final FulfilmentMetrics metrics;
  private final FunctionLogging logging;
  /** Held here because CRaC holds its registered resources only weakly. */
  private final SnapStartPriming priming;

  public FulfilOrderHandler() {
    this(System.getenv());
  }

  public FulfilOrderHandler(Map<String, String> environment) {
    this(FunctionLogging.install(environment, MetricNames.SERVICE), environment);
  }

  private FulfilOrderHandler(FunctionLogging logging, Map<String, String> environment) {
    this(Wiring.of(FunctionConfig.fromEnvironment(environment)), logging);
  }

  private FulfilOrderHandler(Wiring wiring, FunctionLogging logging) {
    this.logging = logging;
    this.priming = wiring.priming();
    this.config = wiring.config();
    this.batch = new BatchProcessor(wiring.fulfilment(), wiring.deadLetters(), wiring.retryWaits(), wiring.messageReturns(),
        config.recordConcurrency(), wiring.metrics(), config.maxReceiveCount());
    this.metrics = wiring.metrics();
  }

  @Override
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
    CallWindow window = new CallWindow(Clock.systemUTC(), context::getRemainingTimeInMillis, config.partnerDeadlineMargin(),
        config.partnerWorstCase(), config.partnerLookupTimeout());
    try (FunctionLogging.InvocationScope scope = logging.invocation(context)) {
      return batch.process(event.getRecords(), window);
    } finally {
      metrics.flush();
    }
  }
}
