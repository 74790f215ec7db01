package com.acme.fulfil.local.lambda;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * A function as Lambda knows it: where its unpacked code is ({@code /var/task}), its handler string,
 * and the settings Lambda turns into its execution environment.
 *
 * @param environment the function's own variables (Lambda adds its reserved ones on top)
 */
public record FunctionConfiguration(
    Path taskRoot,
    String handler,
    String name,
    String region,
    int memoryMb,
    Duration timeout,
    Map<String, String> environment) {

  public FunctionConfiguration {
    Objects.requireNonNull(taskRoot, "taskRoot");
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(timeout, "timeout");
    environment = Map.copyOf(environment);
  }

  public String arn() {
    return "arn:aws:lambda:" + region + ":000000000000:function:" + name;
  }
}
