package com.acme.fulfil.local.runtime;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * Child-first, as a function's own libraries must win over the local stack's; only the Lambda
 * programming model ({@code com.amazonaws.services.lambda.runtime}: the handler interface, the
 * context and the event classes) comes from the caller, because the caller builds the events and
 * reads the responses, as Lambda's runtime does.
 */
final class FunctionClassLoader extends URLClassLoader {
  private static final String SHARED = "com.amazonaws.services.lambda.runtime.";

  FunctionClassLoader(URL[] urls, ClassLoader caller) {
    super("fulfil-order-function", urls, caller);
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (name.startsWith(SHARED) || name.startsWith("java.")) {
      return super.loadClass(name, resolve);
    }
    synchronized (getClassLoadingLock(name)) {
      Class<?> loaded = findLoadedClass(name);
      if (loaded == null) {
        try {
          loaded = findClass(name);
        } catch (ClassNotFoundException notInTheArtifact) {
          return super.loadClass(name, resolve);
        }
      }
      if (resolve) {
        resolveClass(loaded);
      }
      return loaded;
    }
  }

  @Override
  public URL getResource(String name) {
    URL own = findResource(name);
    return own != null ? own : super.getResource(name);
  }
}
