package com.acme.fulfil.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.settings.FunctionEnvironment;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smoke check ./mvnw verify runs: the cold-start harness really starts the packaged function in a
 * fresh JVM, with nothing but the artifact and the driver on its classpath, and books an order with the
 * partner in the benchmark's process. Timings are not asserted.
 */
class FunctionDriverTest {

  @Test
  void freshJvmRunningOnlyTheArtifactBooksTheOrderItIsGiven(@TempDir Path work) {
    Path artifact = Path.of(System.getProperty("fulfil.artifact"));
    TaskRoot task = TaskRoot.unpack(artifact, work.resolve("task"));
    Path driver = DriverClasses.writeJar(work.resolve("driver.jar"));
    try (BenchmarkStack stack = BenchmarkStack.start()) {
      ChildJvm child = new ChildJvm(task, driver, stack.functionEnvironment(), List.of(), work, Optional.empty());

      ChildJvm.Result result = child.run(FunctionEnvironment.C1_ONLY, List.of("cold", "--prime"));

      assertThat(result.values()).containsEntry("failures", "0");
      // The function's priming and Powertools metrics' own SnapStart hook.
      assertThat(result.values()).as("checkpoint hooks that ran").containsEntry("checkpointHooks", "2");
      assertThat(stack.partner().bookings()).hasSize(1);
      assertThat(stack.partner().bookings().getFirst().orderId()).startsWith("ORD-COLD-");
    }
  }
}
