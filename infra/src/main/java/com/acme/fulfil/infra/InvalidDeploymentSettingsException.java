package com.acme.fulfil.infra;

import java.util.List;

/** Deployment settings (context values) that cannot make a working stack. */
public final class InvalidDeploymentSettingsException extends IllegalArgumentException {
  private final List<String> problems;

  InvalidDeploymentSettingsException(List<String> problems) {
    super("The deployment settings cannot make a working stack:\n  - " + String.join("\n  - ", problems));
    this.problems = List.copyOf(problems);
  }

  /** One sentence per unusable setting, each naming the setting and what it must be. */
  public List<String> problems() {
    return problems;
  }
}
