package com.acme.fulfil.handler;

import com.acme.fulfil.booking.CallWindow;
import com.acme.fulfil.config.FunctionConfig;
import com.acme.fulfil.contract.records.MetricNames;
import com.acme.fulfil.observability.FunctionLogging;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.time.Clock;
import java.util.Map;

/**
 * The fulfil-order Lambda: an SQS batch in, one courier booking per order out, and a partial batch response naming
 * the records to retry. Handler string: {@code com.acme.fulfil.handler.FulfilOrderHandler::handleRequest}.
 * Everything is built once per container, from the environment read once.
 */
public final class FulfilOrderHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
  private final FunctionLogging logging;
  /** Also holds the SnapStart priming here, because CRaC holds its registered resources only weakly. */
  private final Wiring wiring;

  public FulfilOrderHandler() {
    this(System.getenv());
  }

  public FulfilOrderHandler(Map<String, String> environment) {
    this.logging = FunctionLogging.install(environment, MetricNames.SERVICE);
    this.wiring = Wiring.of(FunctionConfig.fromEnvironment(environment));
  }

  @Override
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
    CallWindow window = wiring.config().calls().window(Clock.systemUTC(), context::getRemainingTimeInMillis);
    try (FunctionLogging.InvocationScope scope = logging.invocation(context)) {
      return wiring.batch().process(event.getRecords(), window);
    } finally {
      wiring.metrics().flush();
    }
  }
}
