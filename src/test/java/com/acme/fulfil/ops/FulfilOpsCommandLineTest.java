package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code ./fulfil-ops}'s command line, with no stack at all: each command's own help, the flags and
 * arguments it refuses before any AWS call (with no region set, a call would say so instead), and the
 * exit statuses docs/fulfil-ops.md promises.
 */
class FulfilOpsCommandLineTest {
  private static final Map<String, String> NO_STACK = Map.of();

  @Test
  void everyCommandHasItsOwnHelpAndExitsZero() throws Exception {
    for (FulfilOps.Verb verb : FulfilOps.VERBS) {
      OpsRun help = new OpsRun(NO_STACK, verb.name(), "--help");
      assertThat(help.exitCode()).as(verb.name() + " --help: " + help.err()).isZero();
      assertThat(help.out()).as(verb.name() + " --help").startsWith("usage: ./fulfil-ops " + verb.synopsis())
          .contains("Exit status");
    }
    assertThat(new OpsRun(NO_STACK, "--help").out()).contains(FulfilOps.VERBS.stream().map(FulfilOps.Verb::synopsis)
        .toArray(String[]::new));
  }

  @Test
  void noArgumentsIsAnErrorThatShowsTheCommands() throws Exception {
    OpsRun none = new OpsRun(NO_STACK);
    assertThat(none.exitCode()).isEqualTo(2);
    assertThat(none.out()).isEmpty();
    assertThat(none.err()).contains("usage: ./fulfil-ops COMMAND");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "dlq --go                        | dlq does not take --go",
      "check --archive somewhere       | check does not take --archive",
      "order ORD-1 --rate 3            | order does not take --rate",
      "capacity --force                | capacity does not take --force",
      "redrive --reason why            | redrive does not take --reason",
      "dlq ORD-1                       | dlq takes no arguments",
      "order                           | order takes one ORDER_ID",
      "order ORD-1 ORD-2               | order takes one ORDER_ID",
      "drop                            | drop takes one or more MESSAGE_ID",
      "drop M-1 --force                | --force and --reason go together",
      "redrive --rate 0                | --rate takes messages a second from 1 to 500",
      "redrive --go --dry-run          | --go and --dry-run contradict each other",
      "cutover --rate 3                | cutover does not take --rate",
      "book ORD-1                      | no command book"})
  void whatACommandDoesNotTakeIsRefusedBeforeAnyAwsCall(String commandLine, String said) throws Exception {
    OpsRun run = new OpsRun(NO_STACK, commandLine.strip().split("\\s+"));
    assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
    assertThat(run.err()).contains(said).doesNotContain("region");
  }

  /** Before the first deploy there is no stack to read: cutover asks only for the account's region. */
  @Test
  void cutoverNeedsARegionNotAStack() throws Exception {
    OpsRun run = new OpsRun(NO_STACK, "cutover");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("no AWS region: set AWS_REGION to the region the old setup runs in");
  }

  /** An id pasted with a trailing space is no order id: looked up, it would find nothing and read as "not booked". */
  @Test
  void anOrderIdThatBreaksTheMessageContractIsRefusedBeforeAnyAwsCall() throws Exception {
    for (String notAnId : new String[] {"ORD-1 ", " ORD-1", "ORD 1", "ORD-1\t"}) {
      OpsRun run = new OpsRun(NO_STACK, "order", notAnId);
      assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
      assertThat(run.err()).contains("order takes an order id as order messages carry it").contains("\"" + notAnId + "\"")
          .doesNotContain("region");
    }
  }
}
