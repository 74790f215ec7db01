package com.acme.fulfil.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * The deployable zip unpacked as Lambda lays it out in {@code /var/task}: classes at the root, jars in
 * {@code lib/}. Its classpath lists the jars in a fixed order, so a class-data-sharing archive dumped
 * from one run matches the next.
 *
 * @param classesJar the root's classes as one jar instead of the directory, for class-data sharing,
 *     which refuses a classpath with a non-empty directory
 */
record TaskRoot(Path root, Optional<Path> classesJar) {

  static TaskRoot unpack(Path artifact, Path into) {
    if (!Files.isRegularFile(artifact)) {
      throw new IllegalStateException("no function artifact at " + artifact.toAbsolutePath() + ": build it with ./mvnw package");
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
      return new TaskRoot(into, Optional.empty());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot unpack " + artifact, e);
    }
  }

  /** The same task with the root's classes in one jar beside it (what an artifact built for AppCDS would ship). */
  TaskRoot withClassesJarred(Path jar) {
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        String entry = root.relativize(file).toString().replace('\\', '/');
        if (entry.startsWith("lib/")) {
          continue;
        }
        out.putNextEntry(new JarEntry(entry));
        Files.copy(file, out);
        out.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new TaskRoot(root, Optional.of(jar));
  }

  List<Path> classpath() {
    List<Path> entries = new ArrayList<>();
    entries.add(classesJar.orElse(root));
    try (Stream<Path> jars = Files.list(root.resolve("lib"))) {
      jars.filter(p -> p.toString().endsWith(".jar")).sorted(Comparator.naturalOrder()).forEach(entries::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return entries;
  }
}
