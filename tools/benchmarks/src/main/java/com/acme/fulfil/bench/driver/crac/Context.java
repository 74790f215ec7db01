package com.acme.fulfil.bench.driver.crac;

/** The shape {@code org.crac} expects of a CRaC implementation's context (see {@link Core}). */
public abstract class Context<R extends Resource> implements Resource {
  public abstract void register(R resource);
}
