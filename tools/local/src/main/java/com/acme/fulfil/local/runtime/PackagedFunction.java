package com.acme.fulfil.local.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * The deployable artifact laid out as Lambda lays it out in {@code /var/task}: the zip unpacked, classes
 * at the root, jars in {@code lib/}. What runs locally is exactly what {@code cdk deploy} uploads.
 */
public final class PackagedFunction {
  /** The default artifact, relative to the repository root. */
  public static final Path DEFAULT_ARTIFACT = Path.of("function", "target", "fulfil-order.zip");
  public static final String HANDLER_CLASS = "com.acme.fulfil.handler.FulfilOrderHandler";
  /** The handler string the stack deploys. */
  public static final String HANDLER = HANDLER_CLASS + "::handleRequest";

  private PackagedFunction() {}

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
}
