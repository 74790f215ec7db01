package com.acme.fulfil.local.aws;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * Where the build installed the DynamoDB emulator: Dynoxide's prebuilt binary for this platform, from the
 * npm package {@code @dynoxide/<os>-<cpu>} that {@code tools/local/dynamodb-emulator/package.json} pins (its
 * lock file holds the version and checksum) and the local module's build installs with {@code npm ci}.
 * The build writes that folder into {@value #LOCATION}, so the tests and {@code ./run-local} find the
 * binary without looking for it.
 */
final class DynamoDbEmulatorBinary {
  private static final String LOCATION = "dynamodb-emulator.properties";

  private DynamoDbEmulatorBinary() {}

  /** The installed binary for this machine's platform; says what to do if the build did not install one. */
  static Path installed() {
    Path folder = Path.of(installFolder());
    String platform = platform();
    Path binary = folder.resolve("node_modules/@dynoxide/" + platform + "/dynoxide");
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException("no DynamoDB emulator at " + binary + ". The local module's build installs"
          + " @dynoxide/" + platform + " there (./mvnw -pl :local package, which needs npm). tools/local/dynamodb-emulator/"
          + "package.json pins the platforms this project is built on; on another, add its package at the same"
          + " version there and run npm install in that folder to pin it.");
    }
    return binary;
  }

  private static String installFolder() {
    try (InputStream in = DynamoDbEmulatorBinary.class.getResourceAsStream(LOCATION)) {
      if (in == null) {
        throw new IllegalStateException(LOCATION + " is missing from the local module's classes: build it with Maven");
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("folder");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The platform as npm names it (process.platform-process.arch), which is how Dynoxide's packages are named. */
  private static String platform() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    String npmOs = os.startsWith("mac") ? "darwin" : os;
    String npmArch = switch (arch) {
      case "amd64", "x86_64" -> "x64";
      case "aarch64" -> "arm64";
      default -> arch;
    };
    return npmOs + "-" + npmArch;
  }
}
