package com.acme.fulfil.local.lambda;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The class-data sharing archive Lambda's Java runtime maps into every environment's JVM
 * ({@code -Xshare:on -XX:SharedArchiveFile=/var/lang/lib/server/runtime.jsa}): the JDK's and the runtime
 * client's classes, mapped as they are instead of loaded, parsed and verified on every cold start.
 * Lambda ships its archive; here one is made once per JVM that hosts environments, from what an
 * environment really loads: the first environment started lists its classes
 * ({@code -XX:DumpLoadedClassList}), and once its init has ended the JVM dumps those of the JDK and the
 * client into an archive ({@code -Xshare:dump}), which every environment started after it maps. The
 * function's classes stay out, as on Lambda: the runtime client loads them with a class loader of its
 * own, not the JVM's. Until the archive is made, and if making it fails, environments start as the JDK
 * does by default ({@code -Xshare:auto}): only slower, never different.
 */
final class RuntimeArchive {
  private static final Map<String, RuntimeArchive> OF_JVM = new ConcurrentHashMap<>();
  /** Classes a class loader of the runtime client's defined, listed with the jar they came from. */
  private static final String FUNCTION_CLASS_MARK = " source: ";
  private static final String CLASS_LIST = "classes.lst";
  private static final String RUNTIME_CLASSES = "runtime-classes.lst";
  private static final String ARCHIVE = "runtime.jsa";
  private static final String ARCHIVE_BEING_WRITTEN = ARCHIVE + ".part";
  private static final String DUMP_LOG = "dump.log";

  private final Path java;
  private final List<String> moduleOptions;
  private final String classPath;
  private final Path directory;
  private final Path classList;
  private final String listOption;
  private final AtomicBoolean listing = new AtomicBoolean();
  private final AtomicBoolean dumping = new AtomicBoolean();
  private final CompletableFuture<Path> made = new CompletableFuture<>();

  private RuntimeArchive(Path java, List<String> moduleOptions, String classPath) {
    this.java = java;
    this.moduleOptions = List.copyOf(moduleOptions);
    this.classPath = classPath;
    try {
      directory = Files.createTempDirectory("lambda-runtime-archive-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make a directory for the runtime's class archive", e);
    }
    classList = directory.resolve(CLASS_LIST);
    listOption = "-XX:DumpLoadedClassList=" + classList;
    // Deleted at exit in the reverse order: the files, then their directory.
    directory.toFile().deleteOnExit();
    for (String file : List.of(CLASS_LIST, RUNTIME_CLASSES, ARCHIVE, ARCHIVE_BEING_WRITTEN, DUMP_LOG)) {
      directory.resolve(file).toFile().deleteOnExit();
    }
  }

  /**
   * The archive of environments started by {@code java} with these module options and this runtime class
   * path, one per JVM: a JVM maps only an archive dumped with the same.
   */
  static RuntimeArchive of(Path java, List<String> moduleOptions, String classPath) {
    return OF_JVM.computeIfAbsent(String.join(File.pathSeparator, java.toString(), moduleOptions.toString(), classPath),
        key -> new RuntimeArchive(java, moduleOptions, classPath));
  }

  /** The options for the next environment's JVM: the archive once it is made; before that, one lists its classes. */
  List<String> options() {
    if (made.isDone() && !made.isCompletedExceptionally()) {
      return List.of("-XX:SharedArchiveFile=" + made.join());
    }
    return listing.compareAndSet(false, true) ? List.of(listOption) : List.of();
  }

  /**
   * An environment started with {@code command} ended its init, or failed it. Once the listing one has
   * initialised, its list holds init's classes and the archive is dumped from it, beside the environments
   * that go on starting; if it failed, the next environment lists instead.
   */
  void initEnded(List<String> command, boolean initialised) {
    if (!command.contains(listOption)) {
      return;
    }
    if (!initialised) {
      listing.set(false);
    } else if (dumping.compareAndSet(false, true)) {
      CompletableFuture.runAsync(this::dump);
    }
  }

  /** Completes with the archive once it is made; for tests that need environments started with it. */
  CompletableFuture<Path> made() {
    return made;
  }

  private void dump() {
    Path runtimeClasses = directory.resolve(RUNTIME_CLASSES);
    Path archive = directory.resolve(ARCHIVE);
    Path writing = directory.resolve(ARCHIVE_BEING_WRITTEN);
    Path log = directory.resolve(DUMP_LOG);
    try {
      // The listing JVM goes on appending: only its whole lines count.
      String listed = Files.readString(classList);
      Files.write(runtimeClasses, listed.substring(0, listed.lastIndexOf('\n') + 1).lines()
          .filter(line -> !line.contains(FUNCTION_CLASS_MARK)).toList());
      List<String> command = new ArrayList<>(List.of(java.toString(), "-Xshare:dump", "-XX:+UseSerialGC",
          "-XX:SharedClassListFile=" + runtimeClasses, "-XX:SharedArchiveFile=" + writing));
      command.addAll(moduleOptions);
      command.addAll(List.of("-classpath", classPath));
      Process dump = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      if (dump.waitFor() != 0) {
        throw new IllegalStateException("the JVM could not dump it (exit status " + dump.exitValue() + "; " + log + ")");
      }
      Files.move(writing, archive, StandardCopyOption.ATOMIC_MOVE);
      made.complete(archive);
    } catch (IOException | RuntimeException e) {
      System.err.println("Environments start without the runtime's class archive: " + e.getMessage());
      made.completeExceptionally(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      made.completeExceptionally(e);
    }
  }
}
