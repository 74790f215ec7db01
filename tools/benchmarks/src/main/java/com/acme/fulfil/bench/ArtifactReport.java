package com.acme.fulfil.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/** The deployable zip: its size, its dependencies, the biggest of them, and whether any spare SDK HTTP client came along. */
record ArtifactReport(Path artifact, long bytes, List<Jar> jars) {
  /** SDK HTTP clients the function does not use (it builds every client on url-connection-client). */
  static final List<String> SPARE_HTTP_CLIENTS = List.of("apache-client", "apache5-client", "netty-nio-client", "aws-crt-client");

  record Jar(String name, long bytes) {}

  static ArtifactReport of(Path artifact) {
    try (ZipFile zip = new ZipFile(artifact.toFile())) {
      List<Jar> jars = new ArrayList<>();
      for (ZipEntry entry : zip.stream().toList()) {
        if (entry.getName().startsWith("lib/") && entry.getName().endsWith(".jar")) {
          jars.add(new Jar(entry.getName().substring("lib/".length()), entry.getSize()));
        }
      }
      jars.sort(Comparator.comparingLong(Jar::bytes).reversed());
      return new ArtifactReport(artifact, Files.size(artifact), jars);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  List<String> spareHttpClients() {
    return jars.stream().map(Jar::name).filter(name -> SPARE_HTTP_CLIENTS.stream().anyMatch(name::startsWith)).toList();
  }

  void print(PrintStream out, int biggest) {
    // Relative to the checkout where it is inside it: a committed report names no one's home directory.
    Path here = Path.of("").toAbsolutePath();
    out.printf(Locale.ROOT, "artifact: %s%n", artifact.toAbsolutePath().startsWith(here) ? here.relativize(artifact.toAbsolutePath()) : artifact);
    out.printf(Locale.ROOT, "size: %,d bytes (%.2f MB, %.2f MiB), %d dependency jars%n",
        bytes, bytes / 1e6, bytes / (1024.0 * 1024.0), jars.size());
    out.printf(Locale.ROOT, "spare SDK HTTP clients: %s%n", spareHttpClients().isEmpty() ? "none" : spareHttpClients());
    out.println("| dependency | bytes |");
    out.println("|---|---:|");
    jars.stream().limit(biggest).forEach(j -> out.printf(Locale.ROOT, "| %s | %,d |%n", j.name(), j.bytes()));
  }
}
