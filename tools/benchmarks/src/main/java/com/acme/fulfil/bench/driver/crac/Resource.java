package com.acme.fulfil.bench.driver.crac;

/** The shape {@code org.crac} expects of a CRaC implementation's resource (see {@link Core}). */
public interface Resource {
  void beforeCheckpoint(Context<? extends Resource> context) throws Exception;

  void afterRestore(Context<? extends Resource> context) throws Exception;
}
