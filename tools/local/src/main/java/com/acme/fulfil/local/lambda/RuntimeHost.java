package com.acme.fulfil.local.lambda;

import com.amazonaws.services.lambda.runtime.api.client.AWSLambda;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What Lambda's Java runtime brings to every environment: a JVM, its options, and the runtime
 * interface client on the class path (Lambda's {@code /var/runtime/lib}); never the function's jars,
 * which the client loads itself from the task root. The options are those Lambda's managed runtime
 * ({@link JavaRuntime}; {@code java25} unless said otherwise, as the stack deploys) starts the JVM
 * with, the CRaC compatibility switch included (so the function's {@code org.crac} resources register
 * with the runtime's context, the one SnapStart runs), and so is the class-data archive of the runtime
 * that each JVM maps ({@link RuntimeArchive}).
 *
 * <p>The client's native library is unpacked once, here, and named to every JVM with the client's
 * own property: left to itself, each client writes the same fixed path under {@code /tmp}, and
 * environments starting at the same moment would load a half-written file.
 */
public final class RuntimeHost {
  private static final String JNI_PROPERTY = "com.amazonaws.services.lambda.runtime.api.client.runtimeapi.NativeClient.JNI";

  private static final String SNAP_START = "snap-start";
  /**
   * Lambda's {@code --add-opens}, and native access for the runtime client, which loads its JNI library with
   * {@code System.load}: without it, JDK 22+ warns four lines on every environment's start, and --serve's
   * first line came after forty of them. The runtime's class archive is dumped with the same, or every JVM
   * that maps it would print why it cannot use the archive's module graph.
   */
  private static final List<String> MODULE_OPTIONS =
      List.of("--add-opens=java.base/java.io=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED");

  private final Path java;
  private final List<Path> runtimeClasspath;
  private final Path nativeLibrary;
  private final String initializationType;
  private final JavaRuntime runtime;
  private final RuntimeArchive archive;

  private RuntimeHost(Path java, List<Path> runtimeClasspath, Path nativeLibrary, String initializationType,
      JavaRuntime runtime) {
    this.java = java;
    this.runtimeClasspath = List.copyOf(runtimeClasspath);
    this.nativeLibrary = nativeLibrary;
    this.initializationType = initializationType;
    this.runtime = runtime;
    this.archive = RuntimeArchive.of(java, MODULE_OPTIONS, classPath());
  }

  /** The runtime client this JVM has on its class path, run by this JVM's {@code java}, on demand. */
  public static RuntimeHost onDemand(Path workDir) {
    return onDemand(workDir, JavaRuntime.JAVA_25);
  }

  /** As {@link #onDemand(Path)}, with the options of {@code runtime}. */
  public static RuntimeHost onDemand(Path workDir, JavaRuntime runtime) {
    return create(workDir, "on-demand", runtime);
  }

  /**
   * As {@link #onDemand}, but each environment's init ends as SnapStart's does before a snapshot: the
   * runtime runs the {@code beforeCheckpoint} hooks, asks to be restored, and runs the
   * {@code afterRestore} hooks. No snapshot is taken: the same process goes on.
   */
  public static RuntimeHost snapStart(Path workDir) {
    return snapStart(workDir, JavaRuntime.JAVA_25);
  }

  /** As {@link #snapStart(Path)}, with the options of {@code runtime}. */
  public static RuntimeHost snapStart(Path workDir, JavaRuntime runtime) {
    return create(workDir, SNAP_START, runtime);
  }

  private static RuntimeHost create(Path workDir, String initializationType, JavaRuntime runtime) {
    return new RuntimeHost(Path.of(System.getProperty("java.home"), "bin", "java"), runtimeJars(),
        unpackNativeLibrary(workDir), initializationType, runtime);
  }

  String initializationType() {
    return initializationType;
  }

  /** {@code AWS_EXECUTION_ENV}, as the runtime sets it. */
  String executionEnvironment() {
    return runtime.executionEnvironment();
  }

  /** The command line up to the main class. */
  List<String> jvmCommand(FunctionConfiguration function) {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-XX:MaxHeapSize=" + function.memoryMb() * 85 / 100 + "m");
    command.add("-XX:+UseSerialGC");
    command.add("-Xshare:auto");
    command.addAll(archive.options());
    command.add("-XX:+TieredCompilation");
    if (runtime.stopsJitAtC1(SNAP_START.equals(initializationType))) {
      command.add("-XX:TieredStopAtLevel=1");
    }
    command.addAll(MODULE_OPTIONS);
    command.add("-Dorg.crac.Core.Compat=com.amazonaws.services.lambda.crac");
    command.add("-Djava.net.preferIPv4Stack=true");
    command.add("-XX:+ErrorFileToStderr");
    command.add("-D" + JNI_PROPERTY + "=" + nativeLibrary);
    command.add("-classpath");
    command.add(classPath());
    return command;
  }

  /** An environment started with {@code command} ended its init ({@code initialised}) or failed it. */
  void initEnded(List<String> command, boolean initialised) {
    archive.initEnded(command, initialised);
  }

  RuntimeArchive archive() {
    return archive;
  }

  private String classPath() {
    return String.join(File.pathSeparator, runtimeClasspath.stream().map(Path::toString).toList());
  }

  /** The client and what it needs (aws-lambda-java-core, -serialization, the SDK's utils-lite), wherever this JVM loaded them from. */
  private static List<Path> runtimeJars() {
    List<Path> jars = new ArrayList<>();
    for (Class<?> type : List.of(AWSLambda.class, com.amazonaws.services.lambda.runtime.Context.class,
        com.amazonaws.services.lambda.runtime.serialization.PojoSerializer.class,
        software.amazon.awssdk.utilslite.SdkInternalThreadLocal.class)) {
      try {
        jars.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()));
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
    return jars;
  }

  private static Path unpackNativeLibrary(Path workDir) {
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    String name = arch.contains("aarch64") || arch.contains("arm64")
        ? "libaws-lambda-jni.linux-aarch_64.so" : "libaws-lambda-jni.linux-x86_64.so";
    try (InputStream library = AWSLambda.class.getResourceAsStream("/jni/" + name)) {
      if (library == null) {
        throw new IllegalStateException("the runtime interface client carries no " + name);
      }
      Files.createDirectories(workDir);
      Path target = workDir.resolve(name);
      Files.copy(library, target, StandardCopyOption.REPLACE_EXISTING);
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot unpack the runtime's native library", e);
    }
  }
}
