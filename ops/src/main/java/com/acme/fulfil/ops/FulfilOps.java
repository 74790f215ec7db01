package com.acme.fulfil.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * On-call's command, {@code ./fulfil-ops}: works on the deployed stack by default (its outputs, the
 * caller's credentials and region), or on {@code ./run-local --serve} when its variables are exported.
 * docs/runbook.md says when to use which command.
 */
public final class FulfilOps {
  static final String USAGE = """
      usage: ./fulfil-ops COMMAND [options]

        order ORDER_ID          the order's record and story, its bookings at the partner (a lookup books
                                nothing), its recent log lines, and what they add up to
        dlq                     every message in the DLQ: order, class, reason, booked already?, time left
        redrive [--go]          dry run by default: what would move back, what to drop first, the rate;
                                --go starts the move and follows it to the end
                                  --rate N (messages a second, default 5), --include-droppable
        drop MESSAGE_ID...      archive each message whole to a file (--archive DIR, default ./dlq-archive),
                                then delete it from the DLQ; one whose dlq verdict is redrive is left there
                                  --force --reason "WHY": drop it all the same; the archive keeps WHY
        check                   the queue, DLQ, table, mapping, function and alarms against infra/cdk.json,
                                the settings every deploy reads
        capacity                the last hour's arrivals and invocation durations against what the deployed
                                mapping books an hour (at those durations and at the partner's worst case),
                                and the orders waiting now against the backlog alarm

      options: --json (for scripts), --stack NAME (default fulfil-order; AWS only)
      AWS: AWS_REGION and the usual credentials. Local stack: paste the export lines of ./run-local --serve
      (FULFIL_OPS_STACK=local among them; every endpoint must be on localhost).
      Exit status: 0 fine, 1 something needs attention (drift, a message not found, a move not completed,
      orders arriving faster than they are booked),
      2 the command could not run.
      """;

  private FulfilOps() {}

  public static void main(String[] args) throws InterruptedException {
    System.exit(run(args, System.getenv(), System.out, System.err, Clock.systemUTC()));
  }

  /** Runs one command; what it prints goes to {@code out}, problems and progress to {@code err}. */
  public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err, Clock clock)
      throws InterruptedException {
    Arguments arguments;
    try {
      arguments = Arguments.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("fulfil-ops: " + e.getMessage());
      err.print(USAGE);
      return 2;
    }
    if (arguments.command().equals("help")) {
      out.print(USAGE);
      return 0;
    }
    try (Stack stack = Stack.resolve(env, arguments.stack())) {
      Report report = switch (arguments.command()) {
        case "order" -> new OrderStory(stack, clock).tell(arguments.only("ORDER_ID"));
        case "dlq" -> new DlqSurvey(stack, clock).report();
        case "redrive" -> new Redrive(stack, new DlqSurvey(stack, clock))
            .run(arguments.flag("--go"), arguments.flag("--include-droppable"), arguments.rate(), err);
        case "drop" -> new Drop(stack, arguments.archive(), new DlqSurvey(stack, clock), arguments.override())
            .drop(arguments.atLeastOne("MESSAGE_ID"));
        case "check" -> new DriftCheck(stack).check();
        case "capacity" -> new CapacityCheck(stack, clock).report();
        default -> throw new IllegalStateException(arguments.command());
      };
      if (arguments.flag("--json")) {
        out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report.json()));
      } else {
        report.lines().forEach(out::println);
      }
      return report.exitCode();
    } catch (OpsException | IllegalArgumentException e) {
      err.println("fulfil-ops: " + e.getMessage());
      return 2;
    } catch (SdkException e) {
      err.println("fulfil-ops: " + AwsErrors.explain(e, "the stack").getMessage());
      return 2;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The command line, parsed once. */
  record Arguments(String command, List<String> positional, List<String> flags, Map<String, String> options) {
    private static final List<String> COMMANDS = List.of("order", "dlq", "redrive", "drop", "check", "capacity", "help");
    private static final List<String> FLAGS = List.of("--json", "--go", "--dry-run", "--include-droppable", "--force");
    private static final List<String> OPTIONS = List.of("--rate", "--archive", "--stack", "--reason");

    static Arguments parse(String[] args) {
      if (args.length == 0 || List.of("-h", "--help").contains(args[0])) {
        return new Arguments("help", List.of(), List.of(), Map.of());
      }
      if (!COMMANDS.contains(args[0])) {
        throw new IllegalArgumentException("no command " + args[0]);
      }
      List<String> positional = new ArrayList<>();
      List<String> flags = new ArrayList<>();
      Map<String, String> options = new HashMap<>();
      for (int i = 1; i < args.length; i++) {
        String arg = args[i];
        if (FLAGS.contains(arg)) {
          flags.add(arg);
        } else if (OPTIONS.contains(arg)) {
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException(arg + " needs a value");
          }
          options.put(arg, args[++i]);
        } else if (arg.startsWith("-")) {
          throw new IllegalArgumentException("unknown option " + arg);
        } else {
          positional.add(arg);
        }
      }
      if (flags.contains("--go") && flags.contains("--dry-run")) {
        throw new IllegalArgumentException("--go and --dry-run contradict each other");
      }
      boolean reasoned = options.containsKey("--reason") && !options.get("--reason").isBlank();
      if (flags.contains("--force") != reasoned) {
        throw new IllegalArgumentException("--force and --reason go together: --force --reason \"why this order may be"
            + " lost\" drops a message dlq would redrive, and the archive keeps the reason");
      }
      return new Arguments(args[0], positional, flags, options);
    }

    boolean flag(String name) {
      return flags.contains(name);
    }

    String stack() {
      return options.getOrDefault("--stack", Stack.DEFAULT_STACK);
    }

    /** On-call's reason to drop against the verdict, given with --force. */
    Optional<String> override() {
      return Optional.ofNullable(options.get("--reason")).map(String::strip);
    }

    Path archive() {
      return Path.of(options.getOrDefault("--archive", "dlq-archive"));
    }

    int rate() {
      try {
        int rate = Integer.parseInt(options.getOrDefault("--rate", "5"));
        if (rate >= 1 && rate <= 500) {
          return rate;
        }
      } catch (NumberFormatException e) {
        // said below
      }
      throw new IllegalArgumentException("--rate takes messages a second from 1 to 500 (SQS's limit), got " + options.get("--rate"));
    }

    String only(String what) {
      if (positional.size() != 1) {
        throw new IllegalArgumentException(command + " takes one " + what);
      }
      return positional.getFirst();
    }

    List<String> atLeastOne(String what) {
      if (positional.isEmpty()) {
        throw new IllegalArgumentException(command + " takes one or more " + what);
      }
      return positional;
    }
  }
}
