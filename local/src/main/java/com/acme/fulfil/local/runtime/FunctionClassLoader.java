package com.acme.fulfil.local.runtime;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * The function's class loader, as in Lambda: the JDK, then the artifact's own classes and jars, and
 * nothing of the local stack's classpath, whose copies of the SDK, Jackson or Log4j (and their service
 * files) must not leak in. The one exception is the Lambda programming model
 * ({@code com.amazonaws.services.lambda.runtime}: the handler interface, the context, the event
 * classes), which comes from the caller, because the caller builds the events and reads the responses,
 * as Lambda's runtime does.
 */
final class FunctionClassLoader extends URLClassLoader {
  private static final String SHARED = "com.amazonaws.services.lambda.runtime.";

  private final ClassLoader caller;

  FunctionClassLoader(URL[] urls, ClassLoader caller) {
    super("fulfil-order-function", urls, ClassLoader.getPlatformClassLoader());
    this.caller = caller;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    return name.startsWith(SHARED) ? caller.loadClass(name) : super.loadClass(name, resolve);
  }
}
