package com.acme.fulfil.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A share of one CPU for a child JVM, through a Linux cgroup's CFS quota (v1 {@code cpu} controller
 * or v2 {@code cpu.max}): Lambda gives a function one vCPU at 1,769 MB and CPU in proportion below
 * that, so 1,024 MB runs on about 0.58 of a core. Needs root; absent otherwise.
 */
record CpuLimit(double cpus, Path procsFile) {
  static final int LAMBDA_MB_PER_VCPU = 1769;
  private static final long PERIOD_US = 100_000;

  static double forMemory(int memoryMb) {
    return Math.min(1.0, memoryMb / (double) LAMBDA_MB_PER_VCPU);
  }

  /** A cgroup holding {@code cpus} of a core, or empty (with the reason on stderr) where none can be made. */
  static Optional<CpuLimit> create(double cpus) {
    String name = String.format(Locale.ROOT, "fulfil-bench-%03d", Math.round(cpus * 100));
    long quota = Math.round(cpus * PERIOD_US);
    try {
      Path v1 = Path.of("/sys/fs/cgroup/cpu");
      if (Files.isWritable(v1.resolve("cpu.cfs_quota_us"))) {
        Path group = Files.createDirectories(v1.resolve(name));
        Files.writeString(group.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_US));
        Files.writeString(group.resolve("cpu.cfs_quota_us"), Long.toString(quota));
        return Optional.of(new CpuLimit(cpus, group.resolve("cgroup.procs")));
      }
      Path v2 = Path.of("/sys/fs/cgroup");
      if (Files.isWritable(v2.resolve("cgroup.subtree_control"))) {
        Path group = Files.createDirectories(v2.resolve(name));
        Files.writeString(group.resolve("cpu.max"), quota + " " + PERIOD_US);
        return Optional.of(new CpuLimit(cpus, group.resolve("cgroup.procs")));
      }
    } catch (IOException | UncheckedIOException e) {
      System.err.println("no CPU limit: " + e.getMessage());
      return Optional.empty();
    }
    System.err.println("no CPU limit: no writable cgroup cpu controller (needs root)");
    return Optional.empty();
  }

  /** The command, started inside the cgroup: the shell moves itself in, then becomes the JVM. */
  List<String> wrap(List<String> command) {
    List<String> wrapped = new ArrayList<>(List.of("/bin/sh", "-c", "echo $$ > " + procsFile + " && exec \"$@\"", "sh"));
    wrapped.addAll(command);
    return wrapped;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.2f CPU", cpus);
  }
}
