package com.acme.fulfil.local.runtime;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * The deployable artifact, loaded the way Lambda's Java runtime loads it: the zip unpacked, its root
 * and every {@code lib/*.jar} on a class loader of its own, the handler class named by the handler
 * string. What runs locally is therefore exactly what {@code cdk deploy} uploads, with its own copies
 * of every library (and its own statics, such as Powertools' idempotency configuration).
 */
public final class PackagedFunction {
  /** The default artifact, relative to the repository root. */
  public static final Path DEFAULT_ARTIFACT = Path.of("function", "target", "fulfil-order.zip");
  public static final String HANDLER_CLASS = "com.acme.fulfil.handler.FulfilOrderHandler";

  private PackagedFunction() {}

  /**
   * Unpacks {@code artifact} and constructs its handler with {@code environment} (the handler's
   * map constructor: a process's real environment cannot be set from Java).
   */
  @SuppressWarnings("unchecked")
  public static RequestHandler<SQSEvent, SQSBatchResponse> load(Path artifact, Map<String, String> environment) {
    Path taskRoot;
    try {
      taskRoot = Files.createTempDirectory("fulfil-order-task-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    unpack(artifact, taskRoot);
    ClassLoader loader = new FunctionClassLoader(urls(classpath(taskRoot)), PackagedFunction.class.getClassLoader());
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try {
      Class<?> handler = Class.forName(HANDLER_CLASS, true, loader);
      return (RequestHandler<SQSEvent, SQSBatchResponse>) handler.getConstructor(Map.class).newInstance(environment);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("the function failed to start: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the artifact has no usable " + HANDLER_CLASS, e);
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  /**
   * Unpacks the zip into {@code into} as Lambda lays it out in {@code /var/task}: classes at the root,
   * jars in {@code lib/}.
   */
  public static Path unpack(Path artifact, Path into) {
    if (!Files.isRegularFile(artifact)) {
      throw new IllegalStateException("no function artifact at " + artifact.toAbsolutePath()
          + ": build it with ./mvnw package");
    }
    try {
      Files.createDirectories(into);
      try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(artifact))) {
        for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
          Path target = into.resolve(entry.getName()).normalize();
          if (!target.startsWith(into)) {
            throw new IOException("zip entry outside the task root: " + entry.getName());
          }
          if (entry.isDirectory()) {
            Files.createDirectories(target);
          } else {
            Files.createDirectories(target.getParent());
            Files.copy((InputStream) zip, target, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
      return into;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot unpack " + artifact, e);
    }
  }

  /** The task root, then its jars in a fixed order (a class-data-sharing archive needs the same order every run). */
  public static List<Path> classpath(Path taskRoot) {
    List<Path> entries = new ArrayList<>();
    entries.add(taskRoot);
    Path lib = taskRoot.resolve("lib");
    if (Files.isDirectory(lib)) {
      try (Stream<Path> jars = Files.list(lib)) {
        jars.filter(p -> p.toString().endsWith(".jar")).sorted(Comparator.naturalOrder()).forEach(entries::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return entries;
  }

  private static URL[] urls(List<Path> classpath) {
    List<URL> urls = new ArrayList<>();
    try {
      for (Path entry : classpath) {
        urls.add(entry.toUri().toURL());
      }
    } catch (MalformedURLException e) {
      throw new IllegalStateException(e);
    }
    return urls.toArray(URL[]::new);
  }
}
