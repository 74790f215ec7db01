package com.acme.fulfil.bench;

import com.acme.fulfil.bench.driver.FunctionDriver;
import com.acme.fulfil.bench.driver.crac.CheckpointException;
import com.acme.fulfil.bench.driver.crac.Context;
import com.acme.fulfil.bench.driver.crac.Core;
import com.acme.fulfil.bench.driver.crac.Resource;
import com.acme.fulfil.bench.driver.crac.RestoreException;
import com.acme.fulfil.local.esm.FunctionIdentity;
import com.acme.fulfil.local.esm.LocalLambdaContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * The child JVM's only classes besides the artifact: the driver, the local run's invocation context it hands the
 * handler, and the stand-in CRaC implementation, copied out of this module's classpath into a jar of their own, so nothing of the benchmark (its SDK,
 * its Log4j, ElasticMQ) can reach the function's class path. A jar, not a directory, because
 * class-data sharing refuses a classpath with a non-empty directory.
 */
final class DriverClasses {
  /** Where {@code org.crac} looks for a CRaC implementation when told to. */
  static final String CRAC_PACKAGE = Core.class.getPackageName();
  static final String MAIN = FunctionDriver.class.getName();
  private static final List<Class<?>> CLASSES = List.of(FunctionDriver.class, LocalLambdaContext.class,
      FunctionIdentity.class, Core.class, Context.class, Resource.class, CheckpointException.class, RestoreException.class);

  private DriverClasses() {}

  static Path writeJar(Path jar) {
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (Class<?> type : CLASSES) {
        for (Class<?> member : type.getNestMembers()) {
          String entry = resource(member.getName());
          try (InputStream in = DriverClasses.class.getClassLoader().getResourceAsStream(entry)) {
            if (in == null) {
              throw new IOException("class file not found: " + entry);
            }
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
            out.closeEntry();
          }
        }
      }
      return jar;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String resource(String className) {
    return className.replace('.', '/') + ".class";
  }
}
