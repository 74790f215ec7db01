package com.acme.fulfil.runbook;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The partner's API key never becomes a process's argument, where anyone on the machine reads it in the process list
 * ({@code ps}, /proc/PID/cmdline): no command of docs/runbook.md substitutes what get-secret-value prints into
 * another command's arguments; curl takes the header on its standard input ({@code -H @-}).
 */
class RunbookKeepsTheKeyOffCommandLinesTest {
  /** A command substitution ($(...) or backticks) around reading the secret. */
  private static final Pattern KEY_AS_ARGUMENT = Pattern.compile("(\\$\\(|`)\\s*aws\\s+secretsmanager\\s+get-secret-value");

  @Test
  void theSecretIsPipedNeverSubstitutedIntoACommandLine() {
    List<String> commands = Repository.containingThisTest().runbook().sections().stream()
        .flatMap(section -> section.commands().stream()).toList();
    assertThat(commands).filteredOn(command -> command.contains("get-secret-value")).as("commands that read the key")
        .isNotEmpty()
        .allSatisfy(command -> assertThat(command).doesNotContainPattern(KEY_AS_ARGUMENT).contains("| curl").contains("-H @-"));
  }
}
