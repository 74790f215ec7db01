package com.acme.fulfil.system.backend;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class that runs on whichever backend {@link BackendChoice} selects, sharing it with the rest
 * of the run ({@link SharedBackend}). Tagged, so the LocalStack profile runs exactly these.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(SharedBackend.class)
@Tag("backend")
public @interface OnSelectedBackend {}
