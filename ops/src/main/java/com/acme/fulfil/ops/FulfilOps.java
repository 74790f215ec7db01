package com.acme.fulfil.ops;

import com.acme.fulfil.order.OrderMessage;
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
  /** A command: what it takes, and its help; the parser refuses anything else before any AWS call. */
  record Verb(String name, String synopsis, String help, Positional positional, List<String> flags, List<String> options) {
    /** Its own help, {@code ./fulfil-ops VERB --help}. */
    String usage() {
      return "usage: ./fulfil-ops " + synopsis + "\n\n" + help.indent(2) + "\n" + COMMON;
    }
  }

  /** How many plain arguments a command takes. */
  enum Positional { NONE, ONE, AT_LEAST_ONE }

  static final List<Verb> VERBS = List.of(
      new Verb("order", "order ORDER_ID", """
          the order's record and story, its bookings at the partner (a lookup books nothing), its recent
          log lines, and what they add up to; exit status 1 when the partner holds more than one booking, or
          could not be asked (then the verdict is not known)""",
          Positional.ONE, List.of(), List.of()),
      new Verb("dlq", "dlq", """
          every message in the DLQ: order, class, reason, booked already?, time left, what to do; exit status 1
          when another reader held some of them (it says how many it read of how many)""",
          Positional.NONE, List.of(), List.of()),
      new Verb("redrive", "redrive [--go] [--rate N] [--include-droppable]", """
          dry run by default: what would move back, what to drop first, the rate; --go starts the move and
          follows it to the end; --rate N messages a second (1-500, default 5); --include-droppable moves
          what dlq says to drop too""",
          Positional.NONE, List.of("--go", "--dry-run", "--include-droppable"), List.of("--rate")),
      new Verb("drop", "drop MESSAGE_ID... [--archive DIR] [--force --reason WHY]", """
          archive each message whole to a file (--archive DIR, default ./dlq-archive), then delete it from the
          DLQ; one whose dlq verdict is redrive is left there unless --force --reason "WHY" (the archive keeps WHY)""",
          Positional.AT_LEAST_ONE, List.of("--force"), List.of("--archive", "--reason")),
      new Verb("check", "check", """
          the queue, DLQ, table, mapping, function and alarms against infra/cdk.json, the settings every
          deploy reads""",
          Positional.NONE, List.of(), List.of()),
      new Verb("capacity", "capacity", """
          the last hour's arrivals and invocation durations against what the deployed mapping books an hour
          (at those durations and at the partner's worst case), and the orders waiting now against the
          backlog alarm""",
          Positional.NONE, List.of(), List.of()));

  /** What every command takes, and what its exit status means: a stable interface (docs/fulfil-ops.md). */
  static final String COMMON = """
      every command: --json (for scripts), --stack NAME (default fulfil-order; AWS only), --help
      AWS: AWS_REGION and the usual credentials. Local stack: paste the export lines of ./run-local --serve
      (FULFIL_OPS_STACK=local among them; every endpoint must be on localhost).
      Exit status: 0 fine; 1 something needs attention (drift, a DLQ read that could not see every message, a
      message not found or not dropped, a move not completed, orders arriving faster than they are booked,
      an order booked more than once or the partner not answering about it);
      2 the command could not run (its arguments, the stack, AWS).
      """;

  static final String USAGE = "usage: ./fulfil-ops COMMAND [options]     (./fulfil-ops COMMAND --help: its own help)\n\n"
      + String.join("", VERBS.stream().map(verb -> String.format("  %-60s%n%s", verb.synopsis(), verb.help().indent(6)))
          .toList())
      + "\n" + COMMON;

  private FulfilOps() {}

  public static void main(String[] args) throws InterruptedException {
    System.exit(run(args, System.getenv(), System.out, System.err, Clock.systemUTC()));
  }

  /** Runs one command; what it prints goes to {@code out}, problems and progress to {@code err}. */
  public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err, Clock clock)
      throws InterruptedException {
    if (args.length == 0) {
      err.print(USAGE);
      return 2;
    }
    Arguments arguments;
    try {
      arguments = Arguments.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("fulfil-ops: " + e.getMessage());
      err.println("(./fulfil-ops --help lists the commands; ./fulfil-ops COMMAND --help says what one takes)");
      return 2;
    }
    if (arguments.help()) {
      out.print(arguments.verb().map(Verb::usage).orElse(USAGE));
      return 0;
    }
    try (Stack stack = Stack.resolve(env, arguments.stack())) {
      Report report = switch (arguments.command()) {
        case "order" -> new OrderStory(stack, clock).tell(arguments.only());
        case "dlq" -> new DlqSurvey(stack, clock).report();
        case "redrive" -> new Redrive(stack, new DlqSurvey(stack, clock))
            .run(arguments.flag("--go"), arguments.flag("--include-droppable"), arguments.rate(), err);
        case "drop" -> new Drop(stack, arguments.archive(), new DlqSurvey(stack, clock), arguments.override())
            .drop(arguments.positional());
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

  /** The command line, parsed once; {@code verb} is empty only for the general help. */
  record Arguments(Optional<Verb> verb, boolean help, List<String> positional, List<String> flags, Map<String, String> options) {
    private static final List<String> COMMON_FLAGS = List.of("--json");
    private static final List<String> COMMON_OPTIONS = List.of("--stack");
    private static final List<String> HELP = List.of("-h", "--help");

    static Arguments parse(String[] args) {
      if (HELP.contains(args[0]) || args[0].equals("help")) {
        return new Arguments(Optional.empty(), true, List.of(), List.of(), Map.of());
      }
      Verb verb = VERBS.stream().filter(v -> v.name().equals(args[0])).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("no command " + args[0]));
      if (List.of(args).subList(1, args.length).stream().anyMatch(HELP::contains)) {
        return new Arguments(Optional.of(verb), true, List.of(), List.of(), Map.of());
      }
      List<String> positional = new ArrayList<>();
      List<String> flags = new ArrayList<>();
      Map<String, String> options = new HashMap<>();
      for (int i = 1; i < args.length; i++) {
        String arg = args[i];
        if (verb.flags().contains(arg) || COMMON_FLAGS.contains(arg)) {
          flags.add(arg);
        } else if (verb.options().contains(arg) || COMMON_OPTIONS.contains(arg)) {
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException(arg + " needs a value");
          }
          options.put(arg, args[++i]);
        } else if (arg.startsWith("-")) {
          throw new IllegalArgumentException(verb.name() + " does not take " + arg + ": ./fulfil-ops " + verb.synopsis());
        } else {
          positional.add(arg);
        }
      }
      switch (verb.positional()) {
        case NONE -> {
          if (!positional.isEmpty()) {
            throw new IllegalArgumentException(verb.name() + " takes no arguments, got " + String.join(" ", positional));
          }
        }
        case ONE -> {
          if (positional.size() != 1) {
            throw new IllegalArgumentException(verb.name() + " takes one " + verb.synopsis().split(" ")[1]);
          }
        }
        case AT_LEAST_ONE -> {
          if (positional.isEmpty()) {
            throw new IllegalArgumentException(verb.name() + " takes one or more " + verb.synopsis().split(" ")[1]);
          }
        }
      }
      // A pasted id with a space or a stray character would look up nothing and read as "not booked".
      if (verb.name().equals("order") && !OrderMessage.isOrderId(positional.getFirst())) {
        throw new IllegalArgumentException("order takes an order id as order messages carry it (1 to 64 of A-Z a-z 0-9 _"
            + " -), got \"" + positional.getFirst() + "\"");
      }
      if (flags.contains("--go") && flags.contains("--dry-run")) {
        throw new IllegalArgumentException("--go and --dry-run contradict each other");
      }
      boolean reasoned = options.containsKey("--reason") && !options.get("--reason").isBlank();
      if (flags.contains("--force") != reasoned) {
        throw new IllegalArgumentException("--force and --reason go together: --force --reason \"why this order may be"
            + " lost\" drops a message dlq would redrive, and the archive keeps the reason");
      }
      Arguments parsed = new Arguments(Optional.of(verb), false, positional, flags, options);
      if (verb.options().contains("--rate")) {
        parsed.rate();
      }
      return parsed;
    }

    String command() {
      return verb.orElseThrow().name();
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

    String only() {
      return positional.getFirst();
    }
  }
}
