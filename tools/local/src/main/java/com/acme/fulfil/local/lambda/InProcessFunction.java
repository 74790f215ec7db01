package com.acme.fulfil.local.lambda;

import com.acme.fulfil.local.esm.FunctionIdentity;
import com.acme.fulfil.local.esm.LocalLambdaContext;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A handler run inside this JVM behind the same JSON boundary as a real environment: only the
 * incident's function, which the local run replays and which is not a deployable artifact. The event is
 * read with the runtime's own serializer. A JVM cannot kill a thread, so at the timeout the invocation
 * is abandoned (interrupted, its result ignored) rather than killed: work it does afterwards, such as a
 * partner call that completes anyway, still happens, as the partner would see from a killed Lambda
 * whose request had already left.
 */
public final class InProcessFunction implements LambdaFunction {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RequestHandler<SQSEvent, SQSBatchResponse> handler;
  private final FunctionIdentity identity;
  private final Duration timeout;
  private final PojoSerializer<SQSEvent> events;
  private final ExecutorService threads = Executors.newCachedThreadPool(task -> {
    Thread thread = new Thread(task, "in-process-function");
    thread.setDaemon(true);
    return thread;
  });

  public InProcessFunction(RequestHandler<SQSEvent, SQSBatchResponse> handler, FunctionIdentity identity, Duration timeout) {
    this.handler = handler;
    this.identity = identity;
    this.timeout = timeout;
    this.events = LambdaEventSerializers.serializerFor(SQSEvent.class, InProcessFunction.class.getClassLoader());
  }

  @Override
  public InvokeResult invoke(byte[] event) {
    String requestId = UUID.randomUUID().toString();
    LocalLambdaContext context = new LocalLambdaContext(identity, requestId, System.nanoTime() + timeout.toNanos());
    Future<SQSBatchResponse> run = threads.submit(
        () -> handler.handleRequest(events.fromJson(new ByteArrayInputStream(event)), context));
    try {
      SQSBatchResponse response = run.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return new InvokeResult.Response(JSON.writeValueAsBytes(Map.of("batchItemFailures", response.getBatchItemFailures())));
    } catch (TimeoutException e) {
      run.cancel(true);
      return new InvokeResult.Failure("Sandbox.Timedout", "Task timed out after " + timeout.toMillis() + " ms");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      return new InvokeResult.Failure(cause.getClass().getName(), String.valueOf(cause.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      run.cancel(true);
      return new InvokeResult.Failure("Runtime.Interrupted", "the caller stopped waiting");
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    threads.shutdownNow();
  }
}
