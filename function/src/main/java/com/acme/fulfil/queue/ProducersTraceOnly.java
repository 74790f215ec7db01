package com.acme.fulfil.queue;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * A message the function sends to the DLQ carries the producer's X-Ray trace header, copied as a system attribute
 * ({@link DeadLetters}), or none. In Lambda the SDK puts the invocation's own trace on every request it sends
 * (its TraceIdExecutionInterceptor, which runs before a client's own interceptors), and SQS keeps that header as
 * the message's {@code AWSTraceHeader}: {@code fulfil-ops dlq} then showed a trace the producer never saw, and a
 * redriven order's lines were labelled with it. This takes the invocation's header off the DLQ send.
 */
public final class ProducersTraceOnly implements ExecutionInterceptor {
  static final String TRACE_HEADER = "X-Amzn-Trace-Id";

  @Override
  public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes executionAttributes) {
    if (context.request() instanceof SendMessageRequest && context.httpRequest().firstMatchingHeader(TRACE_HEADER).isPresent()) {
      return context.httpRequest().copy(request -> request.removeHeader(TRACE_HEADER));
    }
    return context.httpRequest();
  }
}
