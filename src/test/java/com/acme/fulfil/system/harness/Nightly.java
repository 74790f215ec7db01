package com.acme.fulfil.system.harness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class that README's build leaves out and CI runs: on LocalStack on every push, on the embedded backend
 * each night. Surefire excludes the tag unless {@code -Dsystem-tests.excluded=} says otherwise; docs/testing.md
 * says what README's build gives up for each such class.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("nightly")
public @interface Nightly {}
