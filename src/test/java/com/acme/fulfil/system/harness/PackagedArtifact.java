package com.acme.fulfil.system.harness;

import java.nio.file.Files;
import java.nio.file.Path;

/** The function's deployable zip, as the reactor built it before these tests (see system-tests/pom.xml). */
public final class PackagedArtifact {
  private PackagedArtifact() {}

  public static Path path() {
    Path zip = Path.of(System.getProperty("fulfil.artifact", "../function/target/fulfil-order.zip"));
    if (!Files.isRegularFile(zip)) {
      throw new IllegalStateException("no function artifact at " + zip.toAbsolutePath() + ": run ./mvnw verify from the root");
    }
    return zip;
  }
}
