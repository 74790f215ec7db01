package com.acme.fulfil.contract.timing;

import java.util.List;

/** A set of timing numbers that would reproduce the incident or one of its failure modes. */
public final class InconsistentTimingException extends IllegalArgumentException {
  private final List<String> problems;

  InconsistentTimingException(List<String> problems) {
    super("The timing numbers do not fit together:\n  - " + String.join("\n  - ", problems));
    this.problems = List.copyOf(problems);
  }

  /** One sentence per broken rule, each naming the setting, the reason and a valid value. */
  public List<String> problems() {
    return problems;
  }
}
