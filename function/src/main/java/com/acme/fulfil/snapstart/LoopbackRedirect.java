package com.acme.fulfil.snapstart;

import java.net.URI;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * Sends the SDK requests of one thread, while that thread primes the function, to a loopback endpoint
 * instead of AWS: the request is still built, marshalled and signed by the production client, and its
 * answer unmarshalled, but nothing reaches a real table, secret or queue. Every other request (and
 * every request once the priming is over) goes where the client sends it.
 */
public final class LoopbackRedirect implements ExecutionInterceptor {
  private final ThreadLocal<URI> target = new ThreadLocal<>();

  @Override
  public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes executionAttributes) {
    URI loopback = target.get();
    SdkHttpRequest request = context.httpRequest();
    return loopback == null ? request
        : request.toBuilder().protocol(loopback.getScheme()).host(loopback.getHost()).port(loopback.getPort()).build();
  }

  /** Redirects this thread's requests to {@code loopback} until the scope closes. */
  Scope redirectThisThread(URI loopback) {
    target.set(loopback);
    return target::remove;
  }

  /** A redirected stretch of one thread. */
  @FunctionalInterface
  interface Scope extends AutoCloseable {
    @Override
    void close();
  }
}
