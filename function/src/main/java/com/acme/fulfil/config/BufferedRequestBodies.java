package com.acme.fulfil.config;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * Lets the URL-connection HTTP client buffer each request body and send it with its headers, instead of
 * streaming it.
 *
 * <p>The client streams a body whenever the request carries {@code Content-Length}. Before a streamed
 * POST on a pooled connection, the JDK's {@code HttpURLConnection} first checks that the connection is
 * still open with a read that waits 1 ms for nothing to arrive ({@code sun.net.www.http.HttpClient.New}):
 * every DynamoDB write, SQS and Secrets Manager call paid that wait, measured at 1.3 to 1.6 ms a call
 * against a local DynamoDB emulator (docs/performance.md). Without the header, the JDK buffers the body
 * (a few hundred bytes of JSON here) and sets {@code Content-Length} itself. This runs before signing, so the
 * signature simply does not cover the header.
 */
public final class BufferedRequestBodies implements ExecutionInterceptor {
  private static final String CONTENT_LENGTH = "Content-Length";

  @Override
  public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes executionAttributes) {
    SdkHttpRequest request = context.httpRequest();
    return request.firstMatchingHeader(CONTENT_LENGTH).isPresent()
        ? request.toBuilder().removeHeader(CONTENT_LENGTH).build()
        : request;
  }
}
