package com.acme.fulfil.bench;

import com.acme.fulfil.local.runtime.PackagedFunction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

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
    return new TaskRoot(PackagedFunction.unpack(artifact, into), Optional.empty());
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
    List<Path> entries = new ArrayList<>(PackagedFunction.classpath(root));
    classesJar.ifPresent(jar -> entries.set(0, jar));
    return entries;
  }
}
